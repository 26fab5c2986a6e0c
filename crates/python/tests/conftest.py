"""Shared set-up of the pytest suite."""

import signal

import pytest


@pytest.fixture(autouse=True, scope="session")
def sigint_raises_keyboard_interrupt():
    """The Ctrl-C tests simulate SIGINT with ``_thread.interrupt_main()``,
    which does nothing while SIGINT is ignored, as it is in a process that a
    non-interactive shell started in the background (``cmd &``): Python
    then never installs its handler, and a long call would never be
    interrupted. Install Python's own handler for the session."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)
