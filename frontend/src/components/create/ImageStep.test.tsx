import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  IMAGE_UPLOAD_MAX_BYTES,
  ImageUploadMessages,
  cropRectangle,
  IMAGE_SIZES,
  type ArticleImage,
  type ImageStatus,
} from '@app/shared';
import type { ImageSavedAnswer, ImageUploadStartAnswer } from '@app/shared/api';
import { makeArticle } from '../../test/articles';
import { deferred, mockApi, renderWithProviders, type RecordedRequest } from '../../test/utils';
import { ImageStep } from './ImageStep';

const STORE = 'http://127.0.0.1:9999/content-publisher-images';
const KEY = 'uploads/u1/a1/0123456789abcdef0123456789abcdef';

const uploaded = (generatedAt: string, focalPoint = { x: 0.5, y: 0.5 }): ArticleImage => ({
  url: `/api/image/preview/a1?platform=blog&t=${encodeURIComponent(generatedAt)}`,
  linkedinUrl: `/api/image/preview/a1?platform=linkedin&t=${encodeURIComponent(generatedAt)}`,
  description: 'Uploaded image',
  generatedAt,
  source: 'uploaded',
  focalPoint,
  original: { url: `/api/image/original/a1?t=${encodeURIComponent(generatedAt)}`, width: 3000, height: 1000 },
});
const none: ImageStatus = { success: true, hasImage: false, image: null, pending: false, error: null };
const start: ImageUploadStartAnswer = {
  upload: {
    url: STORE,
    fields: { key: KEY, 'Content-Type': 'image/jpeg', Policy: 'cG9saWN5', 'X-Amz-Signature': 'sig' },
    key: KEY,
    expiresAt: '2030-01-01T00:10:00.000Z',
    maxBytes: IMAGE_UPLOAD_MAX_BYTES,
  },
};
const saved = (image: ArticleImage, message: string): ImageSavedAnswer => ({
  success: true,
  hasImage: true,
  image,
  pending: false,
  error: null,
  message,
});

/** The browser's upload to the store: what was posted, progress the test sends, and the answer it gives. */
class FakeUpload {
  static sent: { url: string; body: FormData }[] = [];
  static status = 204;
  static hold: Promise<void> = Promise.resolve();
  static aborted = 0;
  readonly upload = new EventTarget();
  private readonly events = new EventTarget();
  status = 0;
  private url = '';
  open(_method: string, url: string) {
    this.url = url;
  }
  addEventListener(type: string, listener: EventListener) {
    this.events.addEventListener(type, listener);
  }
  abort() {
    FakeUpload.aborted += 1;
    this.events.dispatchEvent(new Event('abort'));
  }
  send(body: FormData) {
    FakeUpload.sent.push({ url: this.url, body });
    const progress = (loaded: number) =>
      this.upload.dispatchEvent(Object.assign(new Event('progress'), { lengthComputable: true, loaded, total: 100 }));
    void (async () => {
      progress(40);
      await FakeUpload.hold;
      progress(100);
      this.status = FakeUpload.status;
      this.events.dispatchEvent(new Event(this.status === 0 ? 'error' : 'load'));
    })();
  }
}

beforeEach(() => {
  FakeUpload.sent = [];
  FakeUpload.status = 204;
  FakeUpload.hold = Promise.resolve();
  FakeUpload.aborted = 0;
  vi.stubGlobal('XMLHttpRequest', FakeUpload);
});
afterEach(() => vi.unstubAllGlobals());

const jpeg = (size = 2048, name = 'harbour.jpg', type = 'image/jpeg') =>
  new File([new Uint8Array(Math.min(size, 4096))], name, { type });
/** A File that says it is `size` bytes without holding them. */
const sized = (file: File, size: number) => Object.defineProperty(file, 'size', { value: size });

const calls = (requests: RecordedRequest[], route: string) => requests.filter((r) => r.route === route);

function renderStep(image: ArticleImage | null = null) {
  const onGenerated = vi.fn();
  const article = makeArticle({ image });
  const { unmount } = renderWithProviders(<ImageStep article={article} onGenerated={onGenerated} />);
  return { onGenerated, unmount, user: userEvent.setup() };
}

describe('image step: upload your own image', () => {
  it('offers a real, labelled file input for JPEG, PNG and WebP beside Generate', async () => {
    mockApi({ 'images.status': none });
    renderStep();
    const input = screen.getByLabelText('Upload image');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAttribute('accept', 'image/jpeg,image/png,image/webp');
    expect(input).toHaveAccessibleDescription(/JPEG, PNG or WebP, up to 15 MB/);
    expect(screen.getByRole('button', { name: 'Generate Image' })).toBeInTheDocument();
    // Keyboard: the input itself takes the focus (its label is what one sees).
    const user = userEvent.setup();
    await user.tab();
    await user.tab();
    await user.tab();
    expect(input).toHaveFocus();
  });

  it('refuses another type or a file over 15 MB before sending anything, with the server texts', async () => {
    const { requests } = mockApi({ 'images.status': none });
    renderStep();
    const input = screen.getByLabelText('Upload image');
    // userEvent would drop a file the accept list refuses: a browser's "All files" choice is what this is.
    fireEvent.change(input, { target: { files: [jpeg(10, 'notes.gif', 'image/gif')] } });
    expect(await screen.findByRole('alert')).toHaveTextContent(ImageUploadMessages.wrongType);
    fireEvent.change(input, { target: { files: [sized(jpeg(), IMAGE_UPLOAD_MAX_BYTES + 1)] } });
    expect(await screen.findByRole('alert')).toHaveTextContent(ImageUploadMessages.tooLarge);
    expect(calls(requests, 'images.uploadStart')).toHaveLength(0);
    expect(FakeUpload.sent).toHaveLength(0);
  });

  it('start → post to the store with progress → complete; then the focal picker opens on the whole picture', async () => {
    const image = uploaded('2026-01-01T10:00:00.000Z');
    const { requests } = mockApi({
      'images.status': none,
      'images.uploadStart': start,
      'images.uploadComplete': saved(image, ImageUploadMessages.uploaded),
    });
    const release = deferred<void>();
    FakeUpload.hold = release.promise;
    const { user, onGenerated } = renderStep();
    await user.upload(screen.getByLabelText('Upload image'), jpeg());

    expect(await screen.findByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('value', '40');
    expect(screen.getByText('Uploading your picture… 40%')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate Image' })).toBeDisabled();
    expect(calls(requests, 'images.uploadStart')[0]!.body).toEqual({ contentType: 'image/jpeg', size: 2048 });
    // The form a browser posts: the signed fields, then the file.
    const { url, body } = FakeUpload.sent[0]!;
    expect(url).toBe(STORE);
    expect([...body.keys()]).toEqual(['key', 'Content-Type', 'Policy', 'X-Amz-Signature', 'file']);
    expect((body.get('file') as File).name).toBe('harbour.jpg');

    release.resolve();
    const picker = await screen.findByRole('group', { name: /^Focal point: 50% from the left, 50% from the top$/ });
    expect(calls(requests, 'images.uploadComplete')[0]!.body).toEqual({ key: KEY });
    expect(onGenerated).toHaveBeenCalledWith(ImageUploadMessages.uploaded);
    // The whole picture (the kept original), not a crop of it.
    expect(picker.querySelector('img')).toHaveAttribute('src', image.original!.url);
    expect(screen.getByRole('img', { name: 'Blog crop preview' })).toHaveAttribute('src', image.original!.url);
    expect(screen.getByRole('img', { name: 'LinkedIn crop preview' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    // Over one's own photo a generation is not a "regenerate" of it.
    expect(screen.getByRole('button', { name: 'Generate Image' })).toBeEnabled();
  });

  it('the picker moves with a click and the arrow keys, shows both crops, and Apply crop saves the point', async () => {
    const image = uploaded('2026-01-01T10:00:00.000Z');
    const cropped = uploaded('2026-01-01T10:05:00.000Z', { x: 0.12, y: 0.5 });
    const { requests } = mockApi({
      'images.status': { ...none, hasImage: true, image },
      'images.focalPoint': saved(cropped, ImageUploadMessages.cropSaved),
    });
    const { user, onGenerated } = renderStep(image);
    expect(screen.getByText(/Your picture, cut around 50% across, 50% down/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Adjust crop' }));
    const picker = screen.getByTestId('focal-picker');
    vi.spyOn(picker, 'getBoundingClientRect').mockReturnValue({
      left: 0,
      top: 0,
      width: 300,
      height: 100,
      right: 300,
      bottom: 100,
      x: 0,
      y: 0,
      toJSON: () => ({}),
    });
    fireEvent.click(picker, { clientX: 30, clientY: 50 });
    expect(picker).toHaveAccessibleName('Focal point: 10% from the left, 50% from the top');
    // The blog window (3:2 of a 3000×1000 picture) sits against the left edge: the point is near it.
    const blog = cropRectangle({ width: 3000, height: 1000 }, IMAGE_SIZES.blog, { x: 0.1, y: 0.5 });
    expect(blog.left).toBe(0);
    expect(screen.getByRole('img', { name: 'Blog crop preview' }).style.left).toBe('0%');

    picker.focus();
    await user.keyboard('{ArrowRight}');
    expect(picker).toHaveAccessibleName('Focal point: 12% from the left, 50% from the top');
    // Said after the move too: a screen reader does not read the focused picker's new name again.
    expect(
      within(screen.getByRole('region', { name: 'Choose the focal point' })).getByRole('status'),
    ).toHaveTextContent('Focal point moved to 12% from the left, 50% from the top');
    await user.keyboard('{Shift>}{ArrowDown}{/Shift}');
    expect(picker).toHaveAccessibleName('Focal point: 12% from the left, 70% from the top');
    await user.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}{ArrowUp}{ArrowUp}{ArrowUp}{ArrowUp}{ArrowUp}{ArrowUp}{ArrowUp}');
    expect(picker).toHaveAccessibleName('Focal point: 12% from the left, 50% from the top');

    await user.click(screen.getByRole('button', { name: 'Apply crop' }));
    await waitFor(() => expect(calls(requests, 'images.focalPoint')).toHaveLength(1));
    expect(calls(requests, 'images.focalPoint')[0]!.body).toEqual({ focalPoint: { x: 0.12, y: 0.5 } });
    expect(await screen.findByText(/cut around 12% across, 50% down/)).toBeInTheDocument();
    expect(onGenerated).toHaveBeenCalledWith(ImageUploadMessages.cropSaved);
    expect(screen.getByRole('img', { name: 'Uploaded image, blog crop' }).getAttribute('src')).toContain(
      encodeURIComponent('2026-01-01T10:05:00.000Z'),
    );
  });

  it('a crop that fails keeps the point and says what to do; Cancel goes back to the saved one', async () => {
    const image = uploaded('2026-01-01T10:00:00.000Z');
    const { requests } = mockApi({
      'images.status': { ...none, hasImage: true, image },
      'images.focalPoint': { status: 500, body: null },
    });
    const { user } = renderStep(image);
    await user.click(screen.getByRole('button', { name: 'Adjust crop' }));
    const picker = screen.getByTestId('focal-picker');
    picker.focus();
    await user.keyboard('{ArrowLeft}');
    await user.click(screen.getByRole('button', { name: 'Apply crop' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/could not be saved.*choose Apply crop again/);
    expect(picker).toHaveAccessibleName('Focal point: 48% from the left, 50% from the top');
    expect(calls(requests, 'images.focalPoint')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('img', { name: 'Uploaded image, blog crop' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Adjust crop' }));
    expect(screen.getByTestId('focal-picker')).toHaveAccessibleName('Focal point: 50% from the left, 50% from the top');
  });

  it("a file the server refuses shows the server's text, keeps the current image and lets one choose again", async () => {
    const image = uploaded('2026-01-01T10:00:00.000Z');
    const { requests } = mockApi({
      'images.status': { ...none, hasImage: true, image },
      'images.uploadStart': start,
      'images.uploadComplete': {
        status: 400,
        body: { error: ImageUploadMessages.wrongType, message: ImageUploadMessages.wrongType },
      },
    });
    const { user } = renderStep(image);
    await user.upload(screen.getByLabelText('Upload image'), jpeg(100, 'renamed.jpg'));
    expect(await screen.findByRole('alert')).toHaveTextContent(ImageUploadMessages.wrongType);
    expect(screen.getByRole('img', { name: 'Uploaded image, blog crop' })).toBeInTheDocument();
    expect(screen.getByLabelText('Upload image')).toBeEnabled();
    expect(screen.getByLabelText('Upload image')).toHaveAccessibleDescription(ImageUploadMessages.wrongType);
    expect(calls(requests, 'images.uploadComplete')).toHaveLength(1);
  });

  it('a failed post to the store says to check the connection and upload again, and completes nothing', async () => {
    const { requests } = mockApi({ 'images.status': none, 'images.uploadStart': start });
    FakeUpload.status = 0;
    const { user } = renderStep();
    await user.upload(screen.getByLabelText('Upload image'), jpeg());
    expect(await screen.findByRole('alert')).toHaveTextContent(ImageUploadMessages.uploadFailed);
    expect(calls(requests, 'images.uploadComplete')).toHaveLength(0);
    expect(screen.getByText('No image yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate Image' })).toBeEnabled();
  });

  it('closing the step while the file is posted cancels the post and completes nothing', async () => {
    const { requests } = mockApi({
      'images.status': none,
      'images.uploadStart': start,
      'images.uploadComplete': saved(uploaded('2026-01-01T10:00:00.000Z'), ImageUploadMessages.uploaded),
    });
    const release = deferred<void>();
    FakeUpload.hold = release.promise;
    const { user, unmount, onGenerated } = renderStep();
    await user.upload(screen.getByLabelText('Upload image'), jpeg());
    await screen.findByRole('progressbar', { name: 'Upload progress' });

    unmount();
    expect(FakeUpload.aborted).toBe(1);
    release.resolve();
    await new Promise((done) => setTimeout(done, 20));
    expect(calls(requests, 'images.uploadComplete')).toHaveLength(0);
    expect(onGenerated).not.toHaveBeenCalled();
  });

  it('Cancel upload stops the post to the store, completes nothing, keeps the current image and lets one choose again', async () => {
    const { requests } = mockApi({
      'images.status': none,
      'images.uploadStart': start,
      'images.uploadComplete': saved(uploaded('2026-01-01T10:00:00.000Z'), ImageUploadMessages.uploaded),
    });
    const release = deferred<void>();
    FakeUpload.hold = release.promise;
    const { user, onGenerated } = renderStep();
    await user.upload(screen.getByLabelText('Upload image'), jpeg());
    await screen.findByRole('progressbar', { name: 'Upload progress' });

    await user.click(screen.getByRole('button', { name: 'Cancel upload' }));
    expect(FakeUpload.aborted).toBe(1);
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
    release.resolve();
    await new Promise((done) => setTimeout(done, 20));
    expect(calls(requests, 'images.uploadComplete')).toHaveLength(0);
    expect(onGenerated).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('No image yet.')).toBeInTheDocument();
    expect(screen.getByLabelText('Upload image')).toBeEnabled();
  });

  it('a generated image with its kept picture can be cropped too; without one (offline cards) there is no Adjust crop', async () => {
    const generated: ArticleImage = {
      ...uploaded('2026-01-01T10:00:00.000Z'),
      description: 'A lighthouse',
      source: 'generated',
      focalPoint: null,
    };
    mockApi({ 'images.status': { ...none, hasImage: true, image: generated } });
    const { user } = renderStep(generated);
    expect(screen.getByText(/Generated picture, cut around its most interesting part/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Adjust crop' }));
    expect(screen.getByTestId('focal-picker')).toHaveAccessibleName('Focal point: 50% from the left, 50% from the top');
  });

  it('an image without a kept picture offers no crop', () => {
    const card: ArticleImage = {
      ...uploaded('2026-01-01T10:00:00.000Z'),
      source: 'generated',
      focalPoint: null,
      original: null,
    };
    mockApi({ 'images.status': { ...none, hasImage: true, image: card } });
    renderStep(card);
    expect(screen.getByRole('img', { name: /^Generated image/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Adjust crop' })).not.toBeInTheDocument();
  });
});
