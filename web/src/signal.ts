// signal.ts - telling a player it is their move: the page's title ("● Your move") and a
// favicon with a red dot (icon-turn.svg) whenever the game waits for them; and, only if the
// player asked for it with a click, a browser notification (Notification API; the
// permission is requested from that click, never on load) while the page is hidden, and a
// short sound (Web Audio: no file, nothing from another origin).
import * as store from "./store.js";

let mine = false;
let audio: AudioContext | null = null;

function favicon(href: string): void {
  const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

function beep(): void {
  try {
    audio ??= new AudioContext();
    const oscillator = audio.createOscillator(), gain = audio.createGain();
    oscillator.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.4);
  } catch {
    /* no sound on this device */
  }
}

/** Whether the game shown waits for this page's seat; `what` says for what, `game` names it. */
export function yourMove(now: boolean, what: string, game: string): void {
  document.title = now ? `● Your move · Catan` : "Catan";
  favicon(now ? "/web/icon-turn.svg" : "/web/icon.svg");
  document.documentElement.toggleAttribute("data-your-move", now);
  if (now && !mine) {
    const prefs = store.prefs();
    if (prefs.sound) beep();
    if (prefs.notify && document.hidden && "Notification" in window && Notification.permission === "granted") {
      try {
        new Notification("Your move in Catan", { body: what, tag: `catan-${game}` });
      } catch {
        /* some browsers only notify from a service worker */
      }
    }
  }
  mine = now;
}

export function reset(): void {
  mine = false;
  document.title = "Catan";
  favicon("/web/icon.svg");
  document.documentElement.removeAttribute("data-your-move");
}

/** Ask for notifications (from a click). Resolves to what the browser allows. */
export async function askNotifications(): Promise<NotificationPermission | "unsupported"> {
  if (!("Notification" in window)) return "unsupported";
  const answer = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
  store.setPrefs({ ...store.prefs(), notify: answer === "granted" });
  return answer;
}

export function setSound(on: boolean): void {
  store.setPrefs({ ...store.prefs(), sound: on });
  if (on) beep(); /* from the click: browsers allow sound after a gesture */
}
