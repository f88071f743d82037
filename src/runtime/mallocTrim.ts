/**
 * glibc's malloc_trim(0), loaded on first use: it gives the free pages inside every malloc arena
 * back to the system. glibc returns freed memory by itself only from the top of an arena, so the
 * buffers a run freed (V8's helper threads, libuv's pool, the main thread's own) stay resident
 * wherever something still in use sits above them: 10–60 MB of an idle worker's RSS here after a
 * run. Loading fails where there is no glibc (musl, macOS, Windows); the caller decides what then.
 */
export function lazyMallocTrim(): () => Promise<void> {
  let trim: (() => void) | undefined;
  return async () => {
    trim ??= await loadMallocTrim();
    trim();
  };
}

async function loadMallocTrim(): Promise<() => void> {
  // koffi calls C functions without a compiler; its binary for this platform comes with it.
  const { default: koffi } = await import('koffi');
  const mallocTrim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
  return () => void mallocTrim(0);
}
