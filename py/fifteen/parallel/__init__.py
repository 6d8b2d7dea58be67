"""Every core: the parallel IDA* scheduler, native worker processes, batches, and the browser pool's side."""
