"""One loaded page of the site for a module's tests: a page load (Pyodide's start) costs about
5.7 CPU-seconds, fresh context or not, so tests that can start from the lobby share one."""

from contextlib import contextmanager

from tests.browser.conftest import record

PHONE = {"width": 360, "height": 740}
# An init script for the site's pages: bots at the "instant" speed (no pause before a bot's
# move), for tests that wait for the bots' moves rather than watch them.
BOTS_INSTANT = "if (location.protocol === 'http:') localStorage.setItem('taberna.speed', 'instant')"


@contextmanager
def loaded_page(browser, site, wait_engine, init_script=None, **context_args):
    """A phone-sized page of ``site``, its engine loaded, in a context of its own (with
    ``context_args`` and ``init_script``); ``page.context.recorder`` audits its requests
    from its first load on."""
    context = browser.new_context(viewport=PHONE, has_touch=True, **context_args)
    if init_script:
        context.add_init_script(init_script)
    context.recorder = record(context)
    context.set_default_timeout(90_000)
    try:
        page = context.new_page()
        page.goto(site.url)
        wait_engine(page)
        yield page
    finally:
        context.close()
