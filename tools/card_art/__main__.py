from card_art.cli import main

raise SystemExit(main())
