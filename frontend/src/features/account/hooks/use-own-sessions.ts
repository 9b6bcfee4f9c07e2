import { useQuery } from '@connectrpc/connect-query';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SessionService } from '@/gen/logistics/v1/session_service_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { OWN_SESSIONS_KEY, endOtherSessions, endSession } from '../api/account';

const LOAD_FAILED = 'Failed to load your sessions';

/** The browsers signed in as this user (this one first), with Refresh. */
export function useOwnSessions() {
  const query = useQuery(SessionService.method.listSessions, {});
  const { refetch } = query;
  const loading = query.isFetching;
  return {
    sessions: query.data?.sessions ?? [],
    loading,
    error: query.error && !loading ? serverMessage(query.error, LOAD_FAILED) : null,
    reload: () => void refetch(),
  };
}

/** Signs out one other browser, or all of them; the list is asked again either way. */
export function useEndSessions() {
  const queryClient = useQueryClient();
  const settled = () => queryClient.invalidateQueries({ queryKey: OWN_SESSIONS_KEY });
  const one = useMutation({
    mutationFn: endSession,
    onSuccess: () => toast.success('Signed out that session'),
    onError: (err) => toast.error(serverMessage(err, 'Failed to sign out that session')),
    onSettled: settled,
  });
  const others = useMutation({
    mutationFn: endOtherSessions,
    onSuccess: (count) =>
      toast.success(count === 1 ? 'Signed out 1 other session' : `Signed out ${count} other sessions`),
    onError: (err) => toast.error(serverMessage(err, 'Failed to sign out the other sessions')),
    onSettled: settled,
  });
  return {
    endOne: (id: string) => one.mutate(id),
    endingId: one.isPending ? one.variables : undefined,
    endOthers: () => others.mutate(),
    endingOthers: others.isPending,
  };
}
