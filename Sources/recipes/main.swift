// The entry point only hands over to `RecipesCLI`: closures written here
// would be main-actor isolated, and C libraries call back on their own threads.
await RecipesCLI.main()
