"""The review console: the human-review queue in Redis, and the web page reviewers work in.

Usage::

    woodpecker review hash-password                  # a credential hash for settings' review.reviewers
    woodpecker review serve --port 8790              # the page, the queue consumer, crash recovery

- `store.py`: the queue in Redis (per tenant; pending items never expire) and its atomic state changes.
- `sync.py`: the consumer that materialises the review topic into the store.
- `decide.py`: approve / edit / reject, publishing exactly one output per answer id (also across a
  crash: see `Decider.recover`).
- `auth.py`: hashed credentials, signed session cookies, CSRF tokens.
- `app.py`, `views.py`: the Starlette (ASGI) app, mountable under any path by another server.

Nothing here imports torch: the console starts in about a second on a laptop.
"""
