import { useId, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { IMAGE_SIZES, PLATFORMS, cropRectangle, type FocalPoint } from '@app/shared';
import { PLATFORM_NAMES } from '../schedule/messages';

interface FocalPointPickerProps {
  /** The kept original (its address and size). */
  original: { url: string; width: number; height: number };
  value: FocalPoint;
  onChange: (point: FocalPoint) => void;
  disabled?: boolean;
}

/** One arrow key press moves the point by this share of the picture; with Shift, ten times as far. */
const STEP = 0.02;
/** A tall picture is shown at most this high (px): its width follows. */
const MAX_FRAME_HEIGHT = 420;

const clamp01 = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000;
const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;
const describe = (point: FocalPoint) => `${percent(point.x)} from the left, ${percent(point.y)} from the top`;

/**
 * The focal point on the whole picture (docs/product.md, Create): a click or tap puts it there; focused,
 * the arrow keys move it. Beside it, both published crops as they will be cut (the same cropRectangle the
 * server applies, shared/src/images.ts).
 */
export function FocalPointPicker({ original, value, onChange, disabled }: FocalPointPickerProps) {
  const uid = useId();
  const hintId = `${uid}-hint`;
  // What a screen reader says after a move: it does not read a focused element's changed name again.
  const [said, setSaid] = useState('');
  const choose = (point: FocalPoint) => {
    onChange(point);
    setSaid(`Focal point moved to ${describe(point)}`);
  };
  const crops = PLATFORMS.map((platform) => ({
    platform,
    size: IMAGE_SIZES[platform],
    rect: cropRectangle(original, IMAGE_SIZES[platform], value),
  }));

  const pick = (event: MouseEvent<HTMLDivElement>) => {
    if (disabled) return;
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width <= 0 || box.height <= 0) return;
    choose({
      x: clamp01((event.clientX - box.left) / box.width),
      y: clamp01((event.clientY - box.top) / box.height),
    });
  };

  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    if (disabled) return;
    const step = event.shiftKey ? STEP * 10 : STEP;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const delta = moves[event.key];
    if (!delta) return;
    event.preventDefault();
    choose({ x: clamp01(value.x + delta[0]), y: clamp01(value.y + delta[1]) });
  };

  return (
    <div className="focal-picker">
      <p id={hintId} className="field__hint">
        Click or tap the subject of the picture; both crops keep it as close to their centre as they can. With the
        picture focused, the arrow keys move the point (Shift moves it further).
      </p>
      <div
        className={`focal-picker__frame${disabled ? ' is-disabled' : ''}`}
        style={{
          aspectRatio: `${original.width} / ${original.height}`,
          width: `min(100%, ${Math.round((MAX_FRAME_HEIGHT * original.width) / original.height)}px)`,
        }}
        role="group"
        aria-label={`Focal point: ${describe(value)}`}
        aria-describedby={hintId}
        aria-disabled={disabled || undefined}
        tabIndex={disabled ? -1 : 0}
        onClick={pick}
        onKeyDown={move}
        data-testid="focal-picker"
      >
        <img src={original.url} alt="" draggable={false} width={original.width} height={original.height} />
        {crops.map(({ platform, rect }) => (
          <span
            key={platform}
            className={`focal-picker__window focal-picker__window--${platform}`}
            style={{
              left: `${(rect.left / original.width) * 100}%`,
              top: `${(rect.top / original.height) * 100}%`,
              width: `${(rect.width / original.width) * 100}%`,
              height: `${(rect.height / original.height) * 100}%`,
            }}
            aria-hidden="true"
          />
        ))}
        <span
          className="focal-picker__marker"
          style={{ left: `${value.x * 100}%`, top: `${value.y * 100}%` }}
          aria-hidden="true"
        />
      </div>
      <span className="sr-only" role="status">
        {said}
      </span>
      <div className="focal-picker__crops">
        {crops.map(({ platform, size, rect }) => (
          <figure key={platform} className="crop-preview" data-testid={`crop-preview-${platform}`}>
            <div className="crop-preview__window" style={{ aspectRatio: `${size.width} / ${size.height}` }}>
              <img
                src={original.url}
                alt={`${PLATFORM_NAMES[platform].row} crop preview`}
                draggable={false}
                style={{
                  width: `${(original.width / rect.width) * 100}%`,
                  left: `${(-rect.left / rect.width) * 100}%`,
                  top: `${(-rect.top / rect.height) * 100}%`,
                }}
              />
            </div>
            <figcaption>
              <span className={`crop-preview__key crop-preview__key--${platform}`} aria-hidden="true" />
              {PLATFORM_NAMES[platform].row} {size.width}×{size.height}
            </figcaption>
          </figure>
        ))}
      </div>
    </div>
  );
}
