import { useCallback, useEffect, useState } from 'react';
import type { User } from '@/gen/logistics/v1/user_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { listAllUsers } from '../api/users';

const USERS_LOAD_FAILURE_MESSAGE = 'Failed to load users';

/** The user list, loaded on mount and on `reload`. */
export function useUsers() {
  const [users, setUsers] = useState<User[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [count, setCount] = useState(0);
  // The load (`count`) the list and error answer; loading until it is the latest.
  const [loadedCount, setLoadedCount] = useState(-1);
  const loading = loadedCount !== count;

  useEffect(() => {
    const controller = new AbortController();
    listAllUsers(controller.signal).then(
      (list) => {
        if (controller.signal.aborted) return;
        setUsers(list);
        setError(null);
        setLoadedCount(count);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setError(serverMessage(err, USERS_LOAD_FAILURE_MESSAGE));
        setLoadedCount(count);
      },
    );
    return () => controller.abort();
  }, [count]);

  const reload = useCallback(() => setCount((n) => n + 1), []);
  /** Puts a changed user in place without a reload. */
  const replace = useCallback((user: User) => setUsers((list) => list.map((u) => (u.id === user.id ? user : u))), []);

  return { users, loading, error, reload, replace };
}
