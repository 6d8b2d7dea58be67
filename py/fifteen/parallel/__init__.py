"""Every core: the parallel IDA* scheduler, native worker processes and the page pool's side of the
parallel search; the anytime search on several workers (a prover and improvers: its steps, native
processes, the page's pool).  Batches (:mod:`fifteen.batch`) are above."""
