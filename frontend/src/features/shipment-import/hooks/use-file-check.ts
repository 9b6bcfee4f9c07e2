import { useCallback, useEffect, useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { ShipmentImport } from '@/gen/logistics/v1/shipment_service_pb';
import { singleFieldError } from '@/lib/rpc-errors';
import { appendShipmentImportData, checkShipmentImport, createShipmentImport, useImportsChanged } from '../api/imports';
import { fileParts, fileSizeProblem, importFileName } from '../utils/file-parts';

const CHECK_FAILED = 'The file could not be checked. Try again.';

export type FileCheck =
  | { phase: 'idle' }
  | { phase: 'uploading'; sent: number; size: number }
  | { phase: 'checking' }
  | { phase: 'checked'; checked: ShipmentImport }
  | { phase: 'failed'; message: string };

type Step = { phase: 'uploading'; sent: number; size: number } | { phase: 'checking' };

/**
 * Check file: the size checked here first (in the server's words), then the file sent in
 * parts of 1 MiB, in order, and checked by the server (validate only: nothing is written), as
 * one mutation; a check's import then shows in the imports list. `reset` (or unmounting)
 * abandons a check under way.
 */
export function useFileCheck() {
  const importsChanged = useImportsChanged();
  // Cancels the calls of a check that was abandoned (the mutation's state is simply reset).
  const current = useRef<AbortController | null>(null);
  const [step, setStep] = useState<Step>({ phase: 'checking' });
  const [ownFailure, setOwnFailure] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: async ({ file, signal }: { file: File; signal: AbortSignal }) => {
      const created = await createShipmentImport(importFileName(file.name), file.size, signal);
      for (const part of fileParts(file.size)) {
        const data = new Uint8Array(await file.slice(part.offset, part.end).arrayBuffer());
        await appendShipmentImportData(created.id, part.offset, data, signal);
        if (!signal.aborted) setStep({ phase: 'uploading', sent: part.end, size: file.size });
      }
      if (!signal.aborted) setStep({ phase: 'checking' });
      return checkShipmentImport(created.id, signal);
    },
    onSettled: importsChanged,
  });
  const { mutate, reset: resetMutation } = mutation;

  useEffect(() => () => current.current?.abort(), []);

  const check = useCallback(
    (file: File) => {
      current.current?.abort();
      current.current = null;
      resetMutation();
      const problem = fileSizeProblem(file.size);
      setOwnFailure(problem);
      if (problem) return;
      const controller = new AbortController();
      current.current = controller;
      setStep({ phase: 'uploading', sent: 0, size: file.size });
      mutate({ file, signal: controller.signal });
    },
    [mutate, resetMutation],
  );

  /** Back to an empty form: a check under way is abandoned. */
  const reset = useCallback(() => {
    current.current?.abort();
    current.current = null;
    resetMutation();
    setOwnFailure(null);
  }, [resetMutation]);

  /** A message of the page's own (no file chosen). */
  const fail = useCallback(
    (message: string) => {
      reset();
      setOwnFailure(message);
    },
    [reset],
  );

  let state: FileCheck;
  if (ownFailure !== null) state = { phase: 'failed', message: ownFailure };
  else if (mutation.isPending) state = step;
  // A file-level problem is a violation on `file` (or `size_bytes`): its sentence is shown.
  else if (mutation.isError) state = { phase: 'failed', message: singleFieldError(mutation.error, CHECK_FAILED) };
  else if (mutation.isSuccess) state = { phase: 'checked', checked: mutation.data };
  else state = { phase: 'idle' };
  return { state, check, reset, fail };
}
