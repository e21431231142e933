import type { ChangePasswordInput, LoginInput, PublicUser, RegisterInput, SetupStatus } from '@app/shared';
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
  /** Ends every session of the user, this one included. */
  logoutEverywhere: () => api.post<{ message?: string }>('/auth/logout-everywhere'),
  /** Every other session ends; this browser gets a new session cookie. */
  changePassword: (input: ChangePasswordInput) => api.post<{ message?: string }>('/auth/password', input),
  /** Whether registering the first (admin) account needs the deployment's setup code. */
  setup: () => api.get<SetupStatus>('/auth/setup'),
};
