import type { LoginInput, PublicUser, RegisterInput } from '@app/shared';
import { api } from './client';

export interface AuthAnswer {
  user?: PublicUser;
  message?: string;
}

export const authApi = {
  me: () => api.get<{ user: PublicUser }>('/auth/me'),
  login: (input: LoginInput) => api.post<AuthAnswer & { user: PublicUser }>('/auth/login', input),
  /** 201 with `user` for the very first account (admin, logged in); without `user` otherwise. */
  register: (input: RegisterInput) => api.post<AuthAnswer>('/auth/register', input),
  logout: () => api.post<{ message?: string }>('/auth/logout'),
};
