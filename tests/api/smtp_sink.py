#!/usr/bin/python3
"""A local SMTP sink for the mail tests (tests/api/test_async_mail.c).

    smtp_sink.py PORT DIRECTORY

Listens on 127.0.0.1:PORT (Debian's python3-aiosmtpd) and writes every message it accepts
to DIRECTORY as NNNN.eml (the message as received, CRLF lines) and NNNN.txt (the envelope
and the decoded text/plain part, for the test to read without a MIME parser of its own):

    mail_from: <from>
    rcpt_to: <to>
    received_at: <Unix seconds, fractional>
    <blank line>
    <the text/plain part, decoded>

Each pair is written under a temporary name and renamed, .txt last, so a reader never sees
half a message. Runs until SIGTERM.
"""
import email
import email.policy
import os
import signal
import sys
import threading
import time

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, directory):
        self.directory = directory
        self.count = len([n for n in os.listdir(directory) if n.endswith(".txt")])
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        message = email.message_from_bytes(raw, policy=email.policy.default)
        part = message.get_body(preferencelist=("plain",))
        text = part.get_content() if part is not None else ""
        with self.lock:
            self.count += 1
            base = os.path.join(self.directory, "%04d" % self.count)
        for suffix, data in ((".eml", raw),
                             (".txt", ("mail_from: %s\nrcpt_to: %s\nreceived_at: %.3f\n\n%s" % (
                                 envelope.mail_from, ",".join(envelope.rcpt_tos), time.time(), text)).encode())):
            with open(base + suffix + ".tmp", "wb") as out:
                out.write(data)
            os.rename(base + suffix + ".tmp", base + suffix)
        return "250 OK"


def main():
    port, directory = int(sys.argv[1]), sys.argv[2]
    controller = Controller(Sink(directory), hostname="127.0.0.1", port=port)
    controller.start()
    print("listening", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    controller.stop()


if __name__ == "__main__":
    main()
