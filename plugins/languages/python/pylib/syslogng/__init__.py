# SPDX-License-Identifier: GPL-2.0-or-later
"""syslog-ng's Python API as Sluice runs it.

The types that touch messages live in the _syslogng extension of Sluice's
python() plugin; the driver base classes here carry the result codes, so a
plugin written for syslog-ng 3.38 (which subclasses nothing, or these)
runs unchanged.
"""

from _syslogng import LogMessage, LogTemplate, LogTemplateException, LTZ_LOCAL, LTZ_SEND, Logger
from _syslogng import LogSource
from _syslogng import Persist as _Persist
from _syslogng import InstantAckTracker, ConsecutiveAckTracker, BatchedAckTracker


class Persist(_Persist):
    """A dict kept in the persist file; defaults fill the keys it does not have yet."""

    def __init__(self, persist_name, defaults=None):
        super().__init__(persist_name)
        for key, value in (defaults or {}).items():
            if key not in self:
                self[key] = value


class LogDestination:
    """Result codes of send() and flush(), as syslog-ng numbers them."""
    DROP = 0
    ERROR = 1
    SUCCESS = 3
    QUEUED = 4
    NOT_CONNECTED = 5
    RETRY = 6


class LogParser:
    """parse(self, msg) returns True to pass the message on."""


class LogFetcher:
    """fetch(self) returns (result, LogMessage) or (result,)."""
    FETCH_ERROR = 0
    FETCH_NOT_CONNECTED = 1
    FETCH_SUCCESS = 2
    FETCH_TRY_AGAIN = 3
    FETCH_NO_DATA = 4
