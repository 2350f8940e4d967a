"""The stream: faust agents around the pipeline phases, on Kafka (or the embedded noida-db broker).

Usage::

    woodpecker worker --agents extraction,verification     # any subset; replicas share the work
    woodpecker publish examples/answers.jsonl
    woodpecker tail --from-beginning --limit 8
    python -m lab.stream_demo                          # `make run`: broker, workers, examples, diffs
    python -m lab.stream_bench --out bench/results     # stream vs in-process throughput and latency

Modules: extraction / verification / correction (handlers), sampler, deadletter (retries, dead letters),
context (what handlers get), app (one faust App per agent), worker (the process), topics, client
(publish, tail), broker (embedded noida-db), cluster (local worker processes), compat (the one registry
of the faust/aiokafka workarounds: pacing / membership / flushing / seeking / recovering / shutdown),
commands (the CLI), demo, bench.
"""
