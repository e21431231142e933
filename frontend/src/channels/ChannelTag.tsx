import type { CSSProperties, ReactNode } from 'react';
import { channelById } from './registry';

/**
 * A channel's tag (History's Platform column, a calendar item's mark): its registry entry's colours for the light
 * and the dark theme (`tag`, channels/types.ts), which styles/base.css picks with the theme. A channel the SPA has
 * no entry for gets the neutral tag.
 */
export function ChannelTag({
  channel,
  children,
  className = '',
  hidden,
}: {
  channel: string;
  children?: ReactNode;
  className?: string;
  /** When the text beside says the channel already (a calendar item's label). */
  hidden?: boolean;
}) {
  const tag = channelById(channel)?.tag;
  const style = tag
    ? ({
        '--tag-text': tag.light.text,
        '--tag-bg': tag.light.background,
        '--tag-text-dark': tag.dark.text,
        '--tag-bg-dark': tag.dark.background,
      } as CSSProperties)
    : undefined;
  return (
    <span
      className={`channel-tag${className ? ` ${className}` : ''}`}
      style={style}
      data-channel={channel}
      aria-hidden={hidden}
    >
      {children ?? tag?.mark ?? channel.slice(0, 2)}
    </span>
  );
}
