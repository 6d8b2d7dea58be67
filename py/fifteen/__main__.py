from fifteen.cli import main

raise SystemExit(main())
