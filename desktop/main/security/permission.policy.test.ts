import { describe, expect, it } from 'vitest';
import { decidePermissionCheck, decidePermissionRequest } from './permission.policy';

const origins = ['app://desktop'];
const fromApp = { requestingUrl: 'app://desktop/index.html#/tickets', isMainFrame: true };

describe('decidePermissionRequest', () => {
  it('grants notifications to the app', () => {
    expect(decidePermissionRequest('notifications', fromApp, origins)).toBe(true);
  });

  it('grants the microphone for the web phone, but not the camera', () => {
    expect(decidePermissionRequest('media', { ...fromApp, mediaTypes: ['audio'] }, origins)).toBe(true);
    expect(decidePermissionRequest('media', { ...fromApp, mediaTypes: ['audio', 'video'] }, origins)).toBe(false);
    expect(decidePermissionRequest('media', { ...fromApp, mediaTypes: ['video'] }, origins)).toBe(false);
    expect(decidePermissionRequest('media', { ...fromApp, mediaTypes: [] }, origins)).toBe(false);
    expect(decidePermissionRequest('media', fromApp, origins)).toBe(false);
  });

  it.each(['geolocation', 'clipboard-read', 'display-capture', 'openExternal', 'midiSysex', 'fileSystem', 'unknown'])(
    'refuses %s',
    (permission) => {
      expect(decidePermissionRequest(permission, fromApp, origins)).toBe(false);
    },
  );

  it('refuses requests from other origins and from sub-frames', () => {
    expect(decidePermissionRequest('notifications', { requestingUrl: 'https://evil.example/', isMainFrame: true }, origins)).toBe(
      false,
    );
    expect(decidePermissionRequest('notifications', { ...fromApp, isMainFrame: false }, origins)).toBe(false);
    expect(decidePermissionRequest('notifications', { isMainFrame: true }, origins)).toBe(false);
  });
});

describe('decidePermissionCheck', () => {
  it('answers checks with the same rules', () => {
    expect(decidePermissionCheck('notifications', 'app://desktop/', { isMainFrame: true }, origins)).toBe(true);
    expect(decidePermissionCheck('media', 'app://desktop', { isMainFrame: true, mediaType: 'audio' }, origins)).toBe(true);
    expect(decidePermissionCheck('media', 'app://desktop', { isMainFrame: true, mediaType: 'video' }, origins)).toBe(false);
    expect(decidePermissionCheck('notifications', 'https://evil.example', { isMainFrame: true }, origins)).toBe(false);
    expect(decidePermissionCheck('geolocation', 'app://desktop', { isMainFrame: true }, origins)).toBe(false);
    expect(decidePermissionCheck('notifications', 'app://desktop', { isMainFrame: false }, origins)).toBe(false);
  });
});
