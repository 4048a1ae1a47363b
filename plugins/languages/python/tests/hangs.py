# SPDX-License-Identifier: GPL-2.0-or-later
# Plugins that misbehave, for test-python-hangs: sluiced must start, keep
# delivering elsewhere, and stop anyway.
import threading

from syslogng import LogSource


class Forever(object):
    """send() never returns."""

    def send(self, msg):
        threading.Event().wait()
        return True


class RaisesAtInit(object):
    def init(self, options):
        raise RuntimeError("init refuses")

    def send(self, msg):
        return True


class Deaf(LogSource):
    """run() ignores request_exit()."""

    def run(self):
        threading.Event().wait()

    def request_exit(self):
        pass


class BadParser(object):
    def init(self, options):
        raise ValueError("parser init refuses")

    def parse(self, msg):
        return True
