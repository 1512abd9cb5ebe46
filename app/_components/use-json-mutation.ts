'use client';
// The one client mutation helper: a TanStack mutation over sendJson that refreshes the server
// components of the page when it succeeds (their data changed), unless told not to.
import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { sendJson, type HttpError, type MutationMethod } from './http.ts';

export interface JsonRequest {
  url: string;
  method?: MutationMethod;
  body?: unknown;
}

type Options<TResult, TVars> = Omit<UseMutationOptions<TResult, HttpError, TVars>, 'mutationFn'> & { refresh?: boolean };

export function useJsonMutation<TResult = unknown, TVars = void>(toRequest: (vars: TVars) => JsonRequest, options: Options<TResult, TVars> = {}) {
  const router = useRouter();
  const { refresh = true, onSuccess, ...rest } = options;
  return useMutation<TResult, HttpError, TVars>({
    ...rest,
    mutationFn: (vars) => {
      const { url, method = 'POST', body } = toRequest(vars);
      return sendJson<TResult>(url, method, body);
    },
    onSuccess: (...args) => {
      if (refresh) router.refresh();
      return onSuccess?.(...args);
    },
  });
}
