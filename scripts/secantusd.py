"""secantusd-py (its options unchanged) with the transaction lifetime a MongoDB for this product
should have (mongod's transactionLifetimeLimitSeconds, deploy/README.md): a service killed
mid-write leaves its open transaction's documents locked until the database gives up on it, 60 s
by default, while the product's transactions last milliseconds.

Run it with SecantusDB's own Python: .tools/secantus/bin/python3 scripts/secantusd.py --port ...
TRANSACTION_LIFETIME_SECONDS (default 5) sets the lifetime.
"""

import functools
import os
import sys

from secantus import cli, server

LIFETIME = float(os.environ.get("TRANSACTION_LIFETIME_SECONDS", "5"))

server.SecantusDBServer.__init__ = functools.partialmethod(
    server.SecantusDBServer.__init__, transaction_lifetime_seconds=LIFETIME
)
sys.exit(cli.main())
