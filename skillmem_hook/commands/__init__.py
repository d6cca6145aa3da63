"""One module per ``skillmem`` subcommand, each a function of plain values returning an exit code."""
