import { useState } from 'react';
import type { ArticleImage } from '@app/shared';
import { imagePreviewCandidates } from '../../lib/imagePreview';
import { CreateMessages } from './articleQuery';

interface ImagePreviewProps {
  articleId: string;
  image: ArticleImage;
}

/**
 * The article's image (generated or uploaded), from the first candidate address that loads (docs/product.md, Create); when every
 * candidate fails: "Failed to load generated image".
 */
export function ImagePreview({ articleId, image }: ImagePreviewProps) {
  const candidates = imagePreviewCandidates(articleId, image);
  // A new version (generatedAt) starts again from the first candidate.
  const version = `${articleId}|${image.generatedAt}|${candidates.join(' ')}`;
  const [state, setState] = useState({ version, index: 0, loaded: false });
  const current = state.version === version ? state : { version, index: 0, loaded: false };
  const src = candidates[current.index];

  if (!src) {
    return (
      <div className="image-preview image-preview--failed" role="alert">
        {CreateMessages.imageLoadFailed}
      </div>
    );
  }
  return (
    <figure className={`image-preview${current.loaded ? ' is-loaded' : ''}`}>
      <img
        key={src}
        src={src}
        alt={
          image.source === 'uploaded'
            ? 'Uploaded image, blog crop'
            : image.description
              ? `Generated image: ${image.description}`
              : 'Generated image'
        }
        width={1200}
        height={800}
        onLoad={() => setState({ version, index: current.index, loaded: true })}
        onError={() => setState({ version, index: current.index + 1, loaded: false })}
      />
    </figure>
  );
}
