import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { User } from '@/gen/logistics/v1/user_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { listAllUsers } from '../api/users';

const USERS_LOAD_FAILURE_MESSAGE = 'Failed to load users';
/** Every page of ListUsers, as one list. */
const USERS_KEY = ['users', 'all'] as const;

/** The user list, loaded on mount and on `reload`. */
export function useUsers() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: USERS_KEY, queryFn: ({ signal }) => listAllUsers(signal) });
  const { refetch } = query;

  const reload = useCallback(() => void refetch(), [refetch]);
  /** Puts a changed user in place without a reload. */
  const replace = useCallback(
    (user: User) =>
      queryClient.setQueryData<User[]>(USERS_KEY, (list) => list?.map((u) => (u.id === user.id ? user : u))),
    [queryClient],
  );

  return {
    users: query.data ?? [],
    loading: query.isFetching,
    error: query.error ? serverMessage(query.error, USERS_LOAD_FAILURE_MESSAGE) : null,
    reload,
    replace,
  };
}
