interface QueuedCall<I, O> {
  input: I;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

export interface NaturalBatcherOptions<I> {
  /** Most inputs in one batch. */
  maxBatch?: number;
  /**
   * Inputs with the same key never share a batch (one statement cannot touch a row twice): a
   * later one waits for the next batch, so same-key calls take effect in call order.
   */
  keyOf?: (input: I) => string;
}

/**
 * Natural batching of one kind of round trip (a statement, a queue command), as group commit
 * does it: a call made while none of its kind is in flight runs at once, as a batch of one; calls
 * made while one is in flight go together in the next, which starts after it ends. A lone caller
 * waits no longer than before; under load, many callers share a round trip. `runBatch` answers
 * each input in order. If it throws for a batch of several, each input is run again on its own,
 * so that an error reaches only the caller whose input caused it (and a passing fault, such as a
 * lost connection, fails each caller with its own attempt's error).
 */
export class NaturalBatcher<I, O> {
  private readonly queued: QueuedCall<I, O>[] = [];
  private flushing = false;
  private readonly maxBatch: number;

  constructor(
    private readonly runBatch: (inputs: readonly I[]) => Promise<readonly O[]>,
    private readonly options: NaturalBatcherOptions<I> = {},
  ) {
    this.maxBatch = options.maxBatch ?? 64;
  }

  run(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queued.push({ input, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.queued.length > 0) {
      const batch = this.nextBatch();
      try {
        const outputs = await this.runBatch(batch.map((call) => call.input));
        batch.forEach((call, index) => call.resolve(outputs[index]!));
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        // One input's bad data must not fail the others: each goes again on its own.
        else for (const call of batch) await this.runAlone(call);
      }
    }
    this.flushing = false;
  }

  private async runAlone(call: QueuedCall<I, O>): Promise<void> {
    try {
      const [output] = await this.runBatch([call.input]);
      call.resolve(output!);
    } catch (error) {
      call.reject(error);
    }
  }

  /** Takes up to maxBatch queued calls, leaving any whose key is already taken for later. */
  private nextBatch(): QueuedCall<I, O>[] {
    const { keyOf } = this.options;
    if (!keyOf) return this.queued.splice(0, this.maxBatch);
    const batch: QueuedCall<I, O>[] = [];
    const keys = new Set<string>();
    for (let index = 0; index < this.queued.length && batch.length < this.maxBatch; ) {
      const call = this.queued[index]!;
      const key = keyOf(call.input);
      if (keys.has(key)) {
        index++;
        continue;
      }
      keys.add(key);
      batch.push(call);
      this.queued.splice(index, 1);
    }
    return batch;
  }
}
