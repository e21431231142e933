import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { isAdmin } from '@app/shared';
import { useSession } from '../hooks/useSession';

/**
 * /admin is for role admin only; any other or absent user goes to /dashboard (docs/product.md, Admin).
 * Loaded lazily with the signed-in screens, so the welcome page does not carry the shared
 * validation schemas (and zod) that live beside `isAdmin`.
 */
export default function AdminOnly({ children }: { children: ReactNode }) {
  const { user } = useSession();
  return isAdmin(user) ? children : <Navigate to="/dashboard" replace />;
}
