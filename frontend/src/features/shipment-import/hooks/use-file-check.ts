import { useCallback, useEffect, useRef, useState } from 'react';
import type { ShipmentImport } from '@/gen/logistics/v1/shipment_service_pb';
import { singleFieldError } from '@/lib/rpc-errors';
import { appendShipmentImportData, checkShipmentImport, createShipmentImport } from '../api/imports';
import { fileParts, fileSizeProblem, importFileName } from '../utils/file-parts';

const CHECK_FAILED = 'The file could not be checked. Try again.';

export type FileCheck =
  | { phase: 'idle' }
  | { phase: 'uploading'; sent: number; size: number }
  | { phase: 'checking' }
  | { phase: 'checked'; checked: ShipmentImport }
  | { phase: 'failed'; message: string };

/**
 * Check file: the size checked here first (in the server's words), then the file sent in
 * parts of 1 MiB, in order, and checked by the server (validate only: nothing is written).
 * `reset` (or unmounting) abandons a check under way.
 */
export function useFileCheck() {
  const [state, setState] = useState<FileCheck>({ phase: 'idle' });
  const current = useRef<AbortController | null>(null);

  useEffect(() => () => current.current?.abort(), []);

  const check = useCallback(async (file: File) => {
    current.current?.abort();
    const problem = fileSizeProblem(file.size);
    if (problem) {
      setState({ phase: 'failed', message: problem });
      return;
    }
    const controller = new AbortController();
    current.current = controller;
    const { signal } = controller;
    setState({ phase: 'uploading', sent: 0, size: file.size });
    try {
      const created = await createShipmentImport(importFileName(file.name), file.size, signal);
      for (const part of fileParts(file.size)) {
        const data = new Uint8Array(await file.slice(part.offset, part.end).arrayBuffer());
        if (signal.aborted) return;
        await appendShipmentImportData(created.id, part.offset, data, signal);
        if (signal.aborted) return;
        setState({ phase: 'uploading', sent: part.end, size: file.size });
      }
      setState({ phase: 'checking' });
      const checked = await checkShipmentImport(created.id, signal);
      if (signal.aborted) return;
      setState({ phase: 'checked', checked });
    } catch (error) {
      if (signal.aborted) return;
      // A file-level problem is a violation on `file` (or `size_bytes`): its sentence is shown.
      setState({ phase: 'failed', message: singleFieldError(error, CHECK_FAILED) });
    } finally {
      if (current.current === controller) current.current = null;
    }
  }, []);

  /** Back to an empty form: a check under way is abandoned. */
  const reset = useCallback(() => {
    current.current?.abort();
    current.current = null;
    setState({ phase: 'idle' });
  }, []);

  /** A message of the page's own (no file chosen). */
  const fail = useCallback((message: string) => setState({ phase: 'failed', message }), []);

  return { state, check, reset, fail };
}
