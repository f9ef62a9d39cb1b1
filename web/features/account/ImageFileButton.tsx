// The button that picks one image file for the avatar or the brand logo.
import { Camera } from 'lucide-react';
import { useRef } from 'react';
import { Button } from '../../ui/Button.tsx';

/** A button that opens the file picker for one image (the input itself is hidden, `${testId}-input` in tests). */
export function ImageFileButton(props: {
  types: readonly string[];
  label: string;
  testId: string;
  buttonTestId: string;
  loading: boolean;
  onFiles: (files: FileList | null) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={props.types.map((type) => `image/${type}`).join(',')}
        className="sr-only"
        tabIndex={-1}
        aria-label={props.label}
        data-testid={`${props.testId}-input`}
        onChange={(event) => {
          props.onFiles(event.target.files);
          event.target.value = '';
        }}
      />
      <Button
        variant="secondary"
        onClick={() => input.current?.click()}
        loading={props.loading}
        data-testid={props.buttonTestId}
      >
        {!props.loading && <Camera className="size-4" aria-hidden />}
        {props.label}
      </Button>
    </>
  );
}
