"""A real SMTP server for the e-mail tests (aiosmtpd), in one of these modes:

accept    takes every message
refuse    answers 550 to every recipient
greylist  answers 451 to a message the first time it sees its Message-ID, then takes it
drop      closes the connection when the message is sent
auth      takes messages only after AUTH PLAIN or LOGIN as ada / s3cret
sink      takes every message and only counts it (for the benchmark)

and with TLS none (the default), starttls (required before MAIL) or implicit (TLS from the first
byte), with a certificate for 127.0.0.1 and localhost from a private CA made with trustme, whose
certificate is written to DIR/ca.pem.

Each message taken is parsed with Python's e-mail parser and written to DIR/N.json:
envelope, the EHLO name, the client port (one per connection), headers (every value of every header) and the text and HTML parts.
Prints READY once it listens, then runs until it is killed.

Usage: python3 smtp_server.py PORT MODE DIR [TLS]   (Rust tests: service_common::test_smtp)
"""

import json
import ssl
import sys
import threading
from email import policy
from email.parser import BytesParser
from pathlib import Path

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

port, mode, out = int(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
tls = sys.argv[4] if len(sys.argv) > 4 else "none"
seen = set()
sunk = 0
taken = []
lock = threading.Lock()


class Handler:
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if mode == "refuse":
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        global sunk
        if mode == "sink":
            with lock:
                sunk += 1
            return "250 Message accepted"
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
            "helo": session.host_name,
            "peer_port": session.peer[1],
            "tls": session.ssl is not None
            or server.transport.get_extra_info("ssl_object") is not None,
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


context = {}
if tls != "none":
    import trustme

    ca = trustme.CA()
    ca.cert_pem.write_to_path(str(out / "ca.pem"))
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1", "localhost").configure_cert(server_context)
    if tls == "starttls":
        context = {"tls_context": server_context, "require_starttls": True}
    else:
        context = {"ssl_context": server_context}

controller = Controller(
    Handler(),
    hostname="127.0.0.1",
    port=port,
    auth_required=mode == "auth",
    auth_require_tls=False,
    authenticator=authenticator,
    **context,
)
controller.start()
print("READY", flush=True)
threading.Event().wait()
