"""Slot machine and automated-table engines (pure Python, no Django): one module per family; each
registers its JSON kinds with ``casino.rules.jsonio.KINDS`` when imported (``casino.rules.kinds``)."""
