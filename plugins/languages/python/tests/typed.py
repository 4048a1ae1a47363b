# SPDX-License-Identifier: GPL-2.0-or-later
# What a python() parser stores and what a python() destination (its
# LogMessage, or value-pairs()' dict) and $(python) read, each value with
# its Python type: the same code runs in
# syslog-ng 4.8 and in sluiced (test-python-typed.c), and both write it.
from datetime import datetime, timedelta, timezone

import syslogng

WHEN = datetime(2023, 11, 14, 22, 13, 20, 123456)

STORED = [
    ("p.int", 5), ("p.neg", -3), ("p.float", 2.5), ("p.true", True), ("p.false", False), ("p.none", None),
    ("p.list", ["a", "b,c", b"d", "e f", ""]), ("p.str", "text"), ("p.bytes", b"raw"), ("p.dict", {"a": 1}),
    ("p.badlist", ["a", 1]), ("p.tuple", ("a",)), ("p.dt", WHEN),
    ("p.dtz", WHEN.replace(tzinfo=timezone(timedelta(hours=2)))),
    ("p.dtneg", WHEN.replace(tzinfo=timezone(timedelta(hours=-5)))),
]

READ = [
    "j.n", "j.f", "j.b", "j.z", "j.a", "j.o", "j.s", "h.i", "h.neg", "h.f", "h.b", "h.l", "h.j", "h.z", "h.s",
    "h.bad", "h.dt", "h.dtz", "h.dte", "h.dtbad", "MESSAGE", "MSG", "PID", "missing", "FACILITY_NUM", "LEVEL_NUM",
    "SEVERITY_NUM", "PRI", "TAGS", "FACILITY",
] + [key for key, _ in STORED] + [key + ".error" for key, _ in STORED]

# their values change with the clock: only their types are compared
CLOCK = ["DATE", "UNIXTIME", "R_UNIXTIME", "S_UNIXTIME", "ISODATE"]


def shown(msg, key):
    try:
        value = msg[key]
    except Exception as error:
        return "! %s" % type(error).__name__
    return "%s %r" % (type(value).__name__, value)


class Typer(syslogng.LogParser):
    def parse(self, msg):
        for key, value in STORED:
            try:
                msg[key] = value
            except Exception as error:
                msg[key + ".error"] = type(error).__name__
        return True


class Writer(syslogng.LogDestination):
    def init(self, options):
        self.out = open(options["out"], "a")
        return True

    def send(self, msg):
        lines = ["%s %s" % (key, shown(msg, key)) for key in READ]
        lines += ["%s %s" % (key, shown(msg, key).split(" ")[0]) for key in CLOCK]
        lines.append("get %r %r %r %r" % (msg.get("h.i"), msg.get("j.a"), msg.get("missing"), msg.get("missing", 7)))
        lines.append("get_as_str %r %r %r" % (msg.get_as_str("h.i"), msg.get_as_str("j.a"),
                                              msg.get_as_str("missing", "none")))
        made = syslogng.LogMessage("made")
        try:
            made["n"] = 5
            lines.append("made %s" % shown(made, "n"))
        except Exception as error:
            lines.append("made ! %s" % type(error).__name__)
        try:
            msg["x"] = "y"
        except Exception as error:
            lines.append("read-only ! %s" % type(error).__name__)
        self.out.write("".join(line + "\n" for line in lines) + "end\n")
        self.out.flush()
        return True


class DictWriter(syslogng.LogDestination):
    """value-pairs(): send() gets a dict"""

    def init(self, options):
        self.out = open(options["out"], "a")
        return True

    def send(self, pairs):
        lines = ["%s %s %r" % (key, type(value).__name__, value) for key, value in sorted(pairs.items())
                 if key not in CLOCK]
        lines += ["%s %s" % (key, type(pairs[key]).__name__) for key in CLOCK if key in pairs]
        self.out.write("".join(line + "\n" for line in lines) + "end\n")
        self.out.flush()
        return True


def answer(msg, kind):
    return {b"int": 42, b"float": 0.5, b"bool": False, b"none": None, b"list": ["x", "y z"], b"str": "s",
            b"type": type(msg["h.i"]).__name__, b"dt": WHEN}[kind]
