"""The laboratory: evaluation, training, benchmarks, fakes and the local broker harness."""
