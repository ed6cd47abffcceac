print("recipes")
