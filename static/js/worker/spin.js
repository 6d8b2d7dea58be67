// A worker that only counts: told {ms}, it spins that long and answers {rounds} (solver/cores.js
// measures how many workers really run at once with several of these).
self.onmessage = (event) => {
  const end = performance.now() + (Number(event.data?.ms) || 0);
  let rounds = 0;
  let x = 1;
  do {
    for (let i = 0; i < 10000; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
    rounds += 1;
  } while (performance.now() < end);
  self.postMessage({ rounds, x });
};
