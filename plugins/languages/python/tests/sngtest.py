# SPDX-License-Identifier: GPL-2.0-or-later
# A syslog-ng 3.38 Python plugin file, run unchanged by syslog-ng and by
# sluiced in test-python-differential: what each class writes is compared.
import datetime
import threading
import time

from syslogng import LogFetcher, LogMessage, LogSource, LogTemplate, Logger
from syslogng import Persist, ConsecutiveAckTracker, InstantAckTracker


class Numbers(LogFetcher):
    """Yields count numbered messages, then has no more data."""

    def init(self, options):
        self.count = int(options["count"])
        self.prefix = options["prefix_word"]
        self.n = 0
        return True

    def fetch(self):
        if self.n >= self.count:
            return LogFetcher.FETCH_NO_DATA,
        self.n += 1
        msg = LogMessage("%s %d tail-%d" % (self.prefix, self.n, self.n * 7))
        msg["PROGRAM"] = "numbers"
        msg.set_timestamp(datetime.datetime(2021, 3, 4, 5, 6, self.n % 60, tzinfo=datetime.timezone.utc))
        return LogFetcher.FETCH_SUCCESS, msg


class Lines(LogFetcher):
    """Yields syslog lines as the source's format() reads them."""

    lines = [
        "<34>Oct 11 22:14:15 mymachine su[230]: 'su root' failed for lonvick on /dev/pts/8",
        "<13>Feb  5 17:32:18 10.0.0.99 myapp: a line with no pid",
        "no header at all",
    ]

    def init(self, options):
        self.n = 0
        return True

    def fetch(self):
        if self.n >= len(self.lines):
            return LogFetcher.FETCH_NO_DATA,
        self.n += 1
        return LogFetcher.FETCH_SUCCESS, LogMessage.parse(self.lines[self.n - 1], self.parse_options)


class Fields(object):
    """Writes the fields a parsed line has."""

    def init(self, options):
        self.path = options["path"]
        return True

    def send(self, msg):
        with open(self.path, "a") as f:
            f.write(repr([msg[name] for name in ("HOST", "PROGRAM", "PID", "MSGID", "FACILITY", "LEVEL", "MSG")]) + "\n")
        return True


class Split(object):
    """Splits the message into fields; drops the ones that say drop."""

    def init(self, options):
        return True

    def parse(self, msg):
        words = msg["MSG"].decode().split(" ")
        msg["first"] = words[0]
        msg["number"] = words[1]
        msg["rest"] = " ".join(words[2:])
        msg.set_pri(8 * 20 + int(words[1]) % 8)
        return True


class Writer(object):
    """Writes what it receives: values, macros, a template, a missing key."""

    def init(self, options):
        self.path = options["path"]
        self.template = LogTemplate("${ISODATE} ${FACILITY}.${LEVEL} ${PROGRAM}: ${MSG}", self.template_options)
        self.file = None
        return True

    def is_opened(self):
        return self.file is not None

    def open(self):
        self.file = open(self.path, "a")
        return True

    def close(self):
        self.file.close()
        self.file = None

    def send(self, msg):
        try:
            missing = msg["no-such-name"]
        except KeyError:
            missing = b"<missing>"
        names = sorted(set(msg.keys()) & {b"first", b"number", b"MSG", b"PROGRAM", b"DATE", b"nothing"})
        line = [msg["first"], msg["number"], msg["rest"], msg["PROGRAM"], msg["MESSAGE"],
                msg["FACILITY"], msg["PRI"], missing, b",".join(names),
                self.template.format(msg).encode()]
        self.file.write(repr(line) + "\n")
        self.file.flush()
        return self.SUCCESS


class Batches(Writer):
    """Queues messages and writes them at flush()."""

    def init(self, options):
        self.pending = []
        self.flushes = 0
        return Writer.init(self, options)

    def send(self, msg):
        self.pending.append(msg["number"].decode())
        return self.QUEUED

    def flush(self):
        self.file.write("".join(number + "\n" for number in self.pending))
        self.file.flush()
        self.pending = []
        return self.SUCCESS


class Raises(Writer):
    """Raises the first time it sees every tenth message: retried."""

    def init(self, options):
        self.seen = set()
        return Writer.init(self, options)

    def send(self, msg):
        number = msg["number"]
        if int(number) % 10 == 0 and number not in self.seen:
            self.seen.add(number)
            raise RuntimeError("refusing %s once" % number.decode())
        self.file.write(number.decode() + "\n")
        self.file.flush()
        return True


class Fails(Writer):
    """Answers ERROR for its first calls, then takes everything."""

    def init(self, options):
        self.failures = int(options["failures"])
        return Writer.init(self, options)

    def send(self, msg):
        if self.failures > 0:
            self.failures -= 1
            return self.ERROR
        self.file.write(msg["number"].decode() + "\n")
        self.file.flush()
        return True


class Slow(Writer):
    """Blocks in send() for a while, outside the GIL, the first time."""

    def init(self, options):
        self.delay = float(options["delay"])
        return Writer.init(self, options)

    def send(self, msg):
        if self.delay:
            time.sleep(self.delay)
            self.delay = 0
        self.file.write(msg["number"].decode() + "\n")
        self.file.flush()
        return True


class Counting(LogSource):
    """Posts per_run numbered messages each run, from where the persist
    file says the last delivered one was."""

    def init(self, options):
        self.per_run = int(options["per_run"])
        self.ack_tracker = ConsecutiveAckTracker(self.delivered)
        self.exit = threading.Event()
        return True

    def delivered(self, bookmark):
        self.state["next"] = bookmark + 1

    def run(self):
        # syslog-ng 3.38 has the persist file only once init() returned
        self.state = Persist(self.persist_name, defaults={"next": 1})
        start = self.state["next"]
        for n in range(start, start + self.per_run):
            msg = LogMessage("counted %d" % n)
            msg["PROGRAM"] = "counting"
            msg.set_bookmark(n)
            self.post_message(msg)
        self.exit.wait()

    def request_exit(self):
        self.exit.set()


def shout(msg, *args):
    Logger().debug("shout called")
    return b"-".join(args).upper()
