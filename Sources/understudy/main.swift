// The `understudy` command: parses arguments and calls UnderstudyCore and UnderstudyServer.
Understudy.main()
