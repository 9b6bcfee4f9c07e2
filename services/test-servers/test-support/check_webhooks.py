"""Checks deliveries a test receiver recorded (webhook_receiver.py) the way a receiver built on
the published tools would: each raw body's signature with the Standard Webhooks library
(`standardwebhooks` from PyPI) and each body against the payload's JSON Schema (`jsonschema`).
Prints one line per problem and exits 1 if there is any.

    check_webhooks.py SCHEMA RECEIVED_DIR SECRET

Runs with .tools/webhooks/bin/python (`make webhook-tools`).
"""

import json
import sys
from pathlib import Path

import jsonschema
from standardwebhooks.webhooks import Webhook

schema_path, received, secret = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
schema = json.loads(schema_path.read_text())
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
webhook = Webhook(secret)

problems = []
records = sorted(received.glob("*.json"))
for record_path in records:
    record = json.loads(record_path.read_text())
    name = record_path.name
    try:
        verified = webhook.verify(record["raw"], record["headers"])
    except Exception as e:  # the library raises its own WebhookVerificationError
        problems.append(f"{name}: signature not accepted by standardwebhooks: {e}")
        continue
    for error in validator.iter_errors(verified):
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        problems.append(f"{name}: {where}: {error.message}")

for problem in problems:
    print(problem)
print(f"{len(records)} deliveries checked, {len(problems)} problems")
sys.exit(1 if problems or not records else 0)
