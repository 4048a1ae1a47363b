# SPDX-License-Identifier: GPL-2.0-or-later
"""A python-fetcher(): the load average, once per fetch-no-data-delay().

    source s_load { python-fetcher(class("loadavg.LoadAverage") fetch-no-data-delay(60)); };
"""
from syslogng import LogFetcher, LogMessage


class LoadAverage(LogFetcher):
    def init(self, options):
        self.due = True
        return True

    def fetch(self):
        if not self.due:
            self.due = True
            return LogFetcher.FETCH_NO_DATA,
        self.due = False
        with open("/proc/loadavg") as f:
            one, five, fifteen = f.read().split()[:3]
        msg = LogMessage("load average: %s %s %s" % (one, five, fifteen))
        msg["PROGRAM"] = "loadavg"
        msg["load.1m"] = one
        return LogFetcher.FETCH_SUCCESS, msg
