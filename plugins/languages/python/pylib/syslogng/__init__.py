# SPDX-License-Identifier: GPL-2.0-or-later
"""syslog-ng's Python API as Sluice runs it.

The types that touch messages live in the _syslogng extension of Sluice's
python() plugin; the driver base classes here carry the result codes, so a
plugin written for syslog-ng 3.38 (which subclasses nothing, or these)
runs unchanged.

The package extends over every syslogng/ folder on the path (pkgutil), so
that syslog-ng's own modules (syslogng.modules.*, in the python/ folder of
sluiced --module-install-dir) import as they do under syslog-ng.
"""

import logging
import pkgutil

from _syslogng import LogMessage, LogTemplate, LogTemplateOptions, LogTemplateException, LTZ_LOCAL, LTZ_SEND
from _syslogng import Logger, register_config_generator, get_installation_path_for
from _syslogng import LogSource
from _syslogng import Persist as _Persist
from _syslogng import InstantAckTracker, ConsecutiveAckTracker, BatchedAckTracker

__path__ = pkgutil.extend_path(__path__, __name__)


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
    ERROR = FETCH_ERROR = 0
    NOT_CONNECTED = FETCH_NOT_CONNECTED = 1
    SUCCESS = FETCH_SUCCESS = 2
    TRY_AGAIN = FETCH_TRY_AGAIN = 3
    NO_DATA = FETCH_NO_DATA = 4


class _InternalLogHandler(logging.Handler):
    """Python's logging into internal(), at the level of each record."""

    def __init__(self):
        super().__init__()
        self.setFormatter(logging.Formatter('python-%(name)s: %(message)s'))
        self._logger = Logger()

    def emit(self, record):
        text = self.format(record)
        if record.levelno >= logging.ERROR:
            self._logger.error(text)
        elif record.levelno >= logging.WARNING:
            self._logger.warning(text)
        elif record.levelno >= logging.INFO:
            self._logger.info(text)
        else:
            self._logger.debug(text)


_internal_log_handler = _InternalLogHandler()


def _route_logging(into_internal):
    """syslog-ng 4 sends every record of Python's logging to internal()
    (the root logger at DEBUG); 3.38 leaves logging as Python has it."""
    root = logging.getLogger()
    if into_internal and _internal_log_handler not in root.handlers:
        root.setLevel(logging.DEBUG)
        root.addHandler(_internal_log_handler)
    elif not into_internal and _internal_log_handler in root.handlers:
        root.removeHandler(_internal_log_handler)
        root.setLevel(logging.WARNING)
