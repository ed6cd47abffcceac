// The entry point only hands over to the command table: closures written here
// would be main-actor isolated, and C libraries call back on their own threads.
import RecipeCLI

await CommandLineProgram.main(RecipesCLI.program, exitStatus: RecipesCLI.exitStatus)
