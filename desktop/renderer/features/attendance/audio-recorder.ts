import { useEffect, useRef, useState } from 'react';
import { audioFileName, microphoneErrorKey, pickAudioMimeType } from './composer-rules';

/**
 * Records a voice message with MediaRecorder. `start` asks for the microphone; a refusal leaves
 * `errorKey` at 'chatTools.audio.denied' ('Permissão de microfone negada'). `stop` resolves with
 * the recorded file (null when discarded); the tracks are released either way.
 */
export function useAudioRecorder() {
  const [recording, setRecording] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const chunks = useRef<Blob[]>([]);
  const stream = useRef<MediaStream | null>(null);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  const finished = useRef<((file: File | null) => void) | null>(null);
  const keep = useRef(true);

  const release = () => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
    stream.current?.getTracks().forEach((track) => track.stop());
    stream.current = null;
    recorder.current = null;
    setRecording(false);
  };
  useEffect(
    () => () => {
      keep.current = false;
      if (recorder.current?.state === 'recording') recorder.current.stop();
      release();
    },
    [],
  );

  const start = async (): Promise<boolean> => {
    setErrorKey(null);
    if (typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      setErrorKey('chatTools.audio.unsupported');
      return false;
    }
    try {
      stream.current = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      setErrorKey(microphoneErrorKey(error));
      return false;
    }
    try {
      const mimeType = pickAudioMimeType((type) => MediaRecorder.isTypeSupported(type));
      const rec = new MediaRecorder(stream.current, mimeType ? { mimeType } : undefined);
      chunks.current = [];
      keep.current = true;
      rec.ondataavailable = (e) => {
        if (e.data.size > 0) chunks.current.push(e.data);
      };
      rec.onstop = () => {
        const type = (rec.mimeType || mimeType || 'audio/webm').split(';')[0];
        const file = keep.current && chunks.current.length ? new File(chunks.current, audioFileName(type, new Date()), { type }) : null;
        release();
        finished.current?.(file);
        finished.current = null;
      };
      rec.start(250);
      recorder.current = rec;
      setSeconds(0);
      setRecording(true);
      timer.current = setInterval(() => setSeconds((s) => s + 1), 1000);
      return true;
    } catch (error) {
      release();
      setErrorKey(microphoneErrorKey(error));
      return false;
    }
  };

  const finish = (keepIt: boolean) =>
    new Promise<File | null>((resolve) => {
      const rec = recorder.current;
      if (!rec || rec.state !== 'recording') {
        release();
        resolve(null);
        return;
      }
      keep.current = keepIt;
      finished.current = resolve;
      rec.stop();
    });

  return { recording, seconds, errorKey, clearError: () => setErrorKey(null), start, stop: () => finish(true), discard: () => finish(false) };
}
