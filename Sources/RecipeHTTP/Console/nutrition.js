// Nutrition in the console: the block of the recipe's page and the editor's form. A recipe states
// nutrition per serving, and that is what the editor sets; a page scaled for guests shows, beside it,
// the total for them (`forServings`, `total` of the document). Loaded before console.js, whose
// helpers (h, field, commandForm, textChange) these functions call once a page is drawn.
'use strict';

/// The nutrients in the order documents list them, each with its label and its fixed unit.
const NUTRIENTS = [
  ['calories', 'Calories', 'kcal'], ['fat', 'Fat', 'g'], ['saturatedFat', 'Saturated fat', 'g'],
  ['carbohydrate', 'Carbohydrate', 'g'], ['sugar', 'Sugar', 'g'], ['fiber', 'Fiber', 'g'], ['protein', 'Protein', 'g'],
  ['sodium', 'Sodium', 'mg'], ['cholesterol', 'Cholesterol', 'mg'],
];

/// An amount as the page shows it: "240 kcal", "9.5 g" (at most two decimals: a total is a product).
function nutrientText(value) {
  if (!value || typeof value.amount !== 'number') return '—';
  return value.amount.toLocaleString('en-US', { maximumFractionDigits: 2 }) + ' ' + value.unit;
}

/// What the recipe page shows for `nutrition` (the document's member): a heading and a table of the
/// stated nutrients, per serving and, when the document has one, the total for `forServings`
/// (`guests` when the page is scaled, else the recipe's servings). Nothing when it states none.
function nutritionParts(nutrition, guests) {
  if (!nutrition) return [];
  const perServing = nutrition.perServing || {};
  const total = nutrition.forServings && nutrition.total ? nutrition.total : null;
  const stated = NUTRIENTS.filter(([name]) => perServing[name]);
  const perLabel = 'Per serving' + (nutrition.servingSize ? ' (' + nutrition.servingSize + ')' : '');
  const totalLabel = total ? 'Total for ' + nutrition.forServings + (guests ? ' guests' : ' servings') : null;
  return [
    h('h2', { id: 'nutrition-heading' }, 'Nutrition'),
    nutrition.servingSize ? h('p', { id: 'serving-size' }, 'One serving: ' + nutrition.servingSize + '.') : null,
    stated.length ? h('table', { class: 'nutrition', id: 'nutrition', 'aria-labelledby': 'nutrition-heading' },
      headerRow(['Nutrient', perLabel].concat(total ? [totalLabel] : []), [perLabel, totalLabel]),
      h('tbody', {}, stated.map(([name, label]) => h('tr', { 'data-nutrient': name },
        h('td', { class: 'nutrient' }, label),
        h('td', { class: 'number per-serving', 'data-label': perLabel }, nutrientText(perServing[name])),
        total ? h('td', { class: 'number total', 'data-label': totalLabel }, nutrientText(total[name])) : null))))
      : h('p', { class: 'muted' }, 'No nutrients stated.'),
  ].filter(Boolean);
}

/// A nutrient's field as the command sends it: a number (a decimal point or comma; negative ones
/// too, for the rules to refuse with their reason), or the text as typed when it is no number, for
/// the server to refuse (4xx) with its own message, as the editor does for times.
function nutrientValue(text) {
  return /^-?([0-9]+([.,][0-9]*)?|[.,][0-9]+)$/.test(text) ? Number(text.replace(',', '.')) : text;
}

/// The editor's Nutrition form: one field per nutrient (with its unit) and the serving size, all per
/// serving. Set sends one `NutritionChanged` with only what changed: a value as a number, an emptied
/// field as null (removes it).
function nutritionForm(recipeID, recipe) {
  const was = recipe.nutrition || {};
  const perServing = was.perServing || {};
  const inputs = Object.fromEntries(NUTRIENTS.map(([name]) => [name, h('input', {
    id: 'edit-nutrition-' + name, type: 'text', inputmode: 'decimal', maxlength: 32,
    value: perServing[name] ? String(perServing[name].amount) : '', 'aria-describedby': 'nutrition-help' })]));
  const servingSize = h('input', { id: 'edit-serving-size', type: 'text', maxlength: 200, value: was.servingSize || '',
                                   placeholder: '1 slice', 'aria-describedby': 'nutrition-help' });
  return commandForm(recipeID, { id: 'form-nutrition', label: 'Nutrition per serving', className: 'row nutrition',
    fields: [field('edit-serving-size', 'Serving size', servingSize, 'medium'),
             NUTRIENTS.map(([name, label, unit]) => field('edit-nutrition-' + name, label + ' (' + unit + ')', inputs[name], 'narrow')),
             h('p', { id: 'nutrition-help', class: 'help' }, 'Per serving, in the unit shown (kcal, g, mg). ',
               'An emptied field removes that nutrient; the recipe page scales the total for its guests.')],
    buttons: h('button', { type: 'submit' }, 'Set nutrition'),
    command: () => {
      const data = {};
      for (const [name] of NUTRIENTS) {
        const text = inputs[name].value.trim();
        const before = perServing[name] ? perServing[name].amount : undefined;
        if (text === '') {
          if (before !== undefined) data[name] = null;
        } else {
          const value = nutrientValue(text);
          if (value !== before) data[name] = value;
        }
      }
      textChange(data, 'servingSize', servingSize, was.servingSize);
      return Object.keys(data).length ? ['NutritionChanged', data] : 'Nothing to change: edit a nutrient or the serving size first.';
    } });
}

/// The diff's line for nutrition between two versions, or null when it is the same.
function nutritionDiffText(older, newer) {
  const text = (nutrition) => {
    if (!nutrition) return 'none';
    const perServing = nutrition.perServing || {};
    const parts = NUTRIENTS.filter(([name]) => perServing[name]).map(([name, label]) => label + ' ' + nutrientText(perServing[name]));
    if (nutrition.servingSize) parts.unshift('serving “' + nutrition.servingSize + '”');
    return parts.join(', ') || 'none';
  };
  const before = text(older);
  const after = text(newer);
  return before === after ? null : 'Nutrition per serving: ' + before + ' → ' + after;
}
