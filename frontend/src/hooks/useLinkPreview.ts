import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { errorText } from '../api/client';

/**
 * What an e-mailed link's page shows before its one action (Approve, Review): the link's token from the address,
 * the preview read once with it (opening the page shows what the click would act on; it is not read again behind
 * the person's back), and the error to show instead, incomplete link included.
 */
export function useLinkPreview<T>(
  name: string,
  read: (token: string) => Promise<T>,
  messages: { incomplete: string; failed: string },
) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const query = useQuery({
    queryKey: [name, token],
    queryFn: () => read(token),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const error = !token ? messages.incomplete : query.error ? errorText(query.error, messages.failed) : '';
  return { token, preview: query.data ?? null, error };
}
