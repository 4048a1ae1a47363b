# SPDX-License-Identifier: GPL-2.0-or-later
# bench/run's scenario p: the same python() destination in syslog-ng and
# Sluice. send() keeps each message's text and says QUEUED; flush(), once
# per batch of flush-lines() messages, writes the batch to the output file.
# syslog-ng 4.8 takes only a subclass of syslogng.LogDestination, which
# Sluice has too; syslog-ng 3.38 has no such class and sets the result codes
# on whatever class it is given.

try:
    from syslogng import LogDestination
except ImportError:
    LogDestination = object


class LineFile(LogDestination):
    def init(self, options):
        self.path = options["path"]
        self.lines = []
        self.file = None
        return True

    def open(self):
        self.file = open(self.path, "ab")
        return True

    def close(self):
        self.file.close()

    def send(self, msg):
        self.lines.append(msg["MSG"])
        return self.QUEUED

    def flush(self):
        self.lines.append(b"")
        self.file.write(b"\n".join(self.lines))
        self.file.flush()
        self.lines = []
        return self.SUCCESS
