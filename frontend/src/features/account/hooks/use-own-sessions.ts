import { useQuery } from '@connectrpc/connect-query';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SessionService } from '@/gen/logistics/v1/session_service_pb';
import type { Translate } from '@/lib/i18n';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { OWN_SESSIONS_KEY, endOtherSessions, endSession } from '../api/account';

/** The browsers signed in as this user (this one first), with Refresh; `t` words the error. */
export function useOwnSessions(t: Translate) {
  const query = useQuery(SessionService.method.listSessions, {});
  const { refetch } = query;
  const loading = query.isFetching;
  return {
    sessions: query.data?.sessions ?? [],
    loading,
    error: query.error && !loading ? serverMessage(query.error, t('account.sessions.load_failed')) : null,
    reload: () => void refetch(),
  };
}

/** Signs out one other browser, or all of them; the list is asked again either way. */
export function useEndSessions(t: Translate) {
  const queryClient = useQueryClient();
  const settled = () => queryClient.invalidateQueries({ queryKey: OWN_SESSIONS_KEY });
  const one = useMutation({
    mutationFn: endSession,
    onSuccess: () => toast.success(t('account.sessions.signed_out_one')),
    onError: (err) => toast.error(serverMessage(err, t('account.sessions.sign_out_failed'))),
    onSettled: settled,
  });
  const others = useMutation({
    mutationFn: endOtherSessions,
    onSuccess: (count) => toast.success(t('account.sessions.signed_out_others', { count })),
    onError: (err) => toast.error(serverMessage(err, t('account.sessions.sign_out_others_failed'))),
    onSettled: settled,
  });
  return {
    endOne: (id: string) => one.mutate(id),
    endingId: one.isPending ? one.variables : undefined,
    endOthers: () => others.mutate(),
    endingOthers: others.isPending,
  };
}
