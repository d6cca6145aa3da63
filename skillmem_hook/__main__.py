from skillmem_hook.cli import main

raise SystemExit(main())
