"""A real SMTP server for the e-mail tests (aiosmtpd), in one of these modes:

accept    takes every message
refuse    answers 550 to every recipient
greylist  answers 451 to a message the first time it sees its Message-ID, then takes it
drop      closes the connection when the message is sent
auth      takes messages only after AUTH PLAIN or LOGIN as ada / s3cret

Each message taken is parsed with Python's e-mail parser and written to DIR/N.json:
envelope, headers (every value of every header) and the text and HTML parts. Prints READY once
it listens, then runs until it is killed.

Usage: python3 smtp_server.py PORT MODE DIR   (Rust tests: service_common::test_smtp)
"""

import json
import sys
import threading
from email import policy
from email.parser import BytesParser
from pathlib import Path

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

port, mode, out = int(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
seen = set()
taken = []
lock = threading.Lock()


class Handler:
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if mode == "refuse":
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = BytesParser(policy=policy.default).parsebytes(envelope.original_content)
        if mode == "drop":
            server.transport.close()
            return "421 4.3.0 Going away"
        if mode == "greylist" and message["Message-ID"] not in seen:
            seen.add(message["Message-ID"])
            return "451 4.7.1 Greylisted, try again later"
        text = message.get_body(preferencelist=("plain",))
        html = message.get_body(preferencelist=("html",))
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "headers": {k.lower(): [str(v) for v in message.get_all(k)] for k in message.keys()},
            "content_type": message.get_content_type(),
            "text": text.get_content() if text else None,
            "html": html.get_content() if html else None,
        }
        with lock:
            taken.append(record)
            (out / f"{len(taken):04}.json").write_text(json.dumps(record))
        return "250 Message accepted"


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == (
        b"ada",
        b"s3cret",
    )
    # Not "handled": the server answers 535 itself.
    return AuthResult(success=ok, handled=False)


controller = Controller(
    Handler(),
    hostname="127.0.0.1",
    port=port,
    auth_required=mode == "auth",
    auth_require_tls=False,
    authenticator=authenticator,
)
controller.start()
print("READY", flush=True)
threading.Event().wait()
