// The entry point only hands over to the command table: closures written here
// would be main-actor isolated, and C libraries call back on their own threads.
// Synchronous: every command blocks the main thread while it works (docs/architecture.md, "Threads").
import RecipeCLI

CommandLineProgram.main(RecipesCLI.program, exitStatus: RecipesCLI.exitStatus)
