import { useId } from 'react';

export const PRODUCT_NAME = 'Content Publisher';

interface LogoProps {
  /** `light` is drawn for light backgrounds, `dark` for dark ones. */
  variant: 'light' | 'dark';
  /** Show the product name beside the mark. */
  wordmark?: boolean;
  className?: string;
}

const PALETTE = {
  light: { from: '#4f46e5', to: '#7c3aed', glyph: '#ffffff' },
  dark: { from: '#818cf8', to: '#a78bfa', glyph: '#0f0f14' },
} as const;

/** The product mark (light and dark variants) with an optional wordmark. */
export function Logo({ variant, wordmark = true, className }: LogoProps) {
  const gradientId = useId();
  const colors = PALETTE[variant];
  return (
    <span
      role="img"
      aria-label={PRODUCT_NAME}
      data-variant={variant}
      className={['logo', `logo--${variant}`, className].filter(Boolean).join(' ')}
    >
      <svg className="logo__mark" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
        <defs>
          <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor={colors.from} />
            <stop offset="1" stopColor={colors.to} />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
        <path d="M9 10.5h14M9 16h10M9 21.5h6" stroke={colors.glyph} strokeWidth="2.6" strokeLinecap="round" />
        <circle cx="22.5" cy="21.5" r="2.6" fill={colors.glyph} />
      </svg>
      {wordmark && (
        <span className="logo__word" aria-hidden="true">
          {PRODUCT_NAME}
        </span>
      )}
    </span>
  );
}
