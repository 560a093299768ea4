/**
 * The tutorial reader (loaded on demand with `React.lazy`): the table of contents, the chapter
 * or glossary the route names, reading progress and the answers remembered in the browser.
 * Scene links, live scenes and questions inside a chapter reach the app's store through the
 * reader's context.
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useAppStore, useAppStoreApi } from '../../store';
import {
  browserStorage,
  compressorReady,
  decodeState,
  loadCompressor,
  openView,
  selectShareHash,
} from '../../store/share';
import type { SharedState } from '../../store/share';
import type { Chapter } from '../../tutorial';
import { ChapterView } from './ChapterView';
import { GlossaryPage } from './GlossaryPage';
import { Toc } from './Toc';
import { READER_ID, closeTutorial } from './TutorialToggle';
import { loadContent } from './content';
import type { Content } from './content';
import { DISPLACED_NOTE, ReaderContext } from './context';
import type { ReaderContextValue } from './context';
import { loadProgress, markRead, saveProgress, withAnswer, withLast } from './progress';
import type { Progress } from './progress';
import { learnHash } from './links';
import { navigate } from './route';
import type { LearnRoute } from './route';
import { resolveScene } from './scenes';
import { useResolvedTheme } from './useResolvedTheme';
import { revealStage, useReaderFit } from './layout';
import { readPlace, writePlace } from './place';
import {
  displacedCluster,
  holdsLearnerCluster,
  keepLearnerCluster,
  keepViewOnOpen,
  markOpenedByTutorial,
  readStash,
  restoreKept,
  subscribeStash,
} from './stash';
import './highlight.css';
import './tutorial.css';

type Loaded =
  | { status: 'loading' }
  | { status: 'ready'; content: Content }
  | { status: 'error'; message: string };

function useContent(): Loaded {
  const [state, setState] = useState<Loaded>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    loadContent().then(
      (content) => live && setState({ status: 'ready', content }),
      (e: unknown) =>
        live && setState({ status: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

/** Progress kept in state and saved on every change. */
function useProgress() {
  const [storage] = useState(browserStorage);
  const [progress, setProgress] = useState<Progress>(() => loadProgress(storage));
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    saveProgress(storage, progress);
  }, [storage, progress]);
  return [progress, setProgress] as const;
}

function NotFound({ slug }: { slug: string }) {
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => title.current?.focus(), [slug]);
  return (
    <article className="chapter" data-testid="chapter-not-found">
      <h2 ref={title} tabIndex={-1} className="chapter-title">
        No such chapter
      </h2>
      <p>
        There is no chapter called “{slug}”. The link may be old or mistyped: pick a chapter from
        the contents.
      </p>
    </article>
  );
}

/** The reader. `route` is where the address bar says it is. */
export default function TutorialReader({ route }: { route: LearnRoute }) {
  const mainStore = useAppStoreApi();
  const loaded = useContent();
  const theme = useResolvedTheme();
  const [progress, setProgress] = useProgress();
  const [status, setStatus] = useState('');
  const chapters: readonly Chapter[] = useMemo(
    () => (loaded.status === 'ready' ? loaded.content.book.chapters : []),
    [loaded],
  );
  const glossary = useMemo(
    () => (loaded.status === 'ready' ? loaded.content.glossary : []),
    [loaded],
  );
  const slug = route.kind === 'chapter' ? route.slug : undefined;
  const index = chapters.findIndex((c) => c.slug === slug);
  const chapter = chapters[index];

  // `#/learn`: resume at the last chapter opened, else the first (the address bar says which).
  useEffect(() => {
    if (route.kind !== 'home' || chapters.length === 0) return;
    const resume = chapters.find((c) => c.slug === progress.last) ?? chapters[0];
    if (resume) navigate(learnHash({ kind: 'chapter', slug: resume.slug }), { replace: true });
  }, [route.kind, chapters, progress.last]);

  const reader = useRef<HTMLElement>(null);
  useReaderFit(reader);
  // What the visualiser showed when the reader opened is kept (stash.ts).
  useEffect(() => keepViewOnOpen(mainStore), [mainStore]);

  // A chapter the learner opens (not the one they were reading, which a reload reopens) sets
  // the visualiser to its front-matter scene — unless the visualiser holds the learner's own
  // cluster, which is never replaced without asking (the chapter offers its scene instead).
  // Back/Forward to a chapter brings back the view that entry showed.
  const lastRef = useRef(progress.last);
  const opened = useRef(0);
  const openInVisualiser = useCallback(
    (view: SharedState) => {
      opened.current += 1;
      const displaced = keepLearnerCluster(mainStore);
      openView(mainStore, view);
      markOpenedByTutorial(mainStore.getState());
      // The trace view shows it: leave "Time & failures" if it is on (a time link goes back).
      mainStore.getState().setView('trace');
      return displaced;
    },
    [mainStore],
  );
  const showChapterScene = useCallback(
    (chapterSlug: string, scene: string, origin: Element | null) => {
      void resolveScene(scene).then((r) => {
        if (!r.ok || lastRef.current !== chapterSlug) return;
        const displaced = openInVisualiser(r.scene.state);
        setStatus(
          `The visualiser now shows this chapter’s scene.${displaced ? DISPLACED_NOTE : ''}`,
        );
        revealStage(origin);
      });
    },
    [openInVisualiser],
  );
  useEffect(() => {
    if (!chapter) return;
    if (lastRef.current !== chapter.slug) {
      lastRef.current = chapter.slug;
      const place = readPlace();
      const back = place?.view ? decodeState(place.view) : null;
      const scene = chapter.scene;
      const before = opened.current;
      if (back?.ok) {
        openView(mainStore, back.state);
        if (place?.byTutorial) markOpenedByTutorial(mainStore.getState());
      } else if (scene !== undefined && !holdsLearnerCluster(mainStore.getState()))
        void resolveScene(scene).then((r) => {
          // Not when the learner has moved on, or opened another scene meanwhile.
          if (!r.ok || lastRef.current !== chapter.slug || opened.current !== before) return;
          if (holdsLearnerCluster(mainStore.getState())) return;
          openView(mainStore, r.scene.state);
          markOpenedByTutorial(mainStore.getState());
          mainStore.getState().setView('trace');
          setStatus(`The visualiser now shows the scene of “${chapter.title}”.`);
        });
    }
    setProgress((p) => withLast(p, chapter.slug));
  }, [chapter, mainStore, setProgress]);

  // Each history entry remembers the view on screen, for Back and Forward: written once per
  // burst of store updates (a microtask later), so always into the entry that showed it.
  const onChapter = route.kind === 'chapter';
  useEffect(() => {
    if (!onChapter) return;
    let queued = false;
    let live = true;
    const save = () => {
      queued = false;
      if (!live) return;
      const s = mainStore.getState();
      if (!compressorReady()) {
        void loadCompressor().then(save, () => undefined);
        return;
      }
      const view = selectShareHash(s);
      if (view) writePlace({ view, byTutorial: !holdsLearnerCluster(s) });
    };
    const unsubscribe = mainStore.subscribe((s, prev) => {
      const same =
        s.objects === prev.objects &&
        s.scene === prev.scene &&
        s.ui === prev.ui &&
        s.playback.stepIndex === prev.playback.stepIndex;
      if (same || queued) return;
      queued = true;
      queueMicrotask(save);
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, [mainStore, onChapter]);

  // The learner's own cluster, kept while the tutorial shows something else: "Restore".
  const stash = useSyncExternalStore(subscribeStash, readStash, () => null);
  const kept = useAppStore((s) => stash !== null && displacedCluster(s) !== null);
  const held = useAppStore((s) => holdsLearnerCluster(s));
  const restore = () => {
    if (restoreKept(mainStore))
      setStatus(
        'Your cluster is back in the visualiser, as it was before the tutorial changed it.',
      );
  };

  const onEnd = useCallback(() => {
    if (chapter) setProgress((p) => markRead(p, chapter.slug));
  }, [chapter, setProgress]);

  const announce = useCallback((text: string) => setStatus(text), []);
  const saveAnswer = useCallback(
    (id: string, option: string) => setProgress((p) => withAnswer(p, id, option)),
    [setProgress],
  );
  const byId = useMemo(() => new Map(glossary.map((e) => [e.id, e])), [glossary]);
  const context: ReaderContextValue = useMemo(
    () => ({
      mainStore,
      openInVisualiser,
      slug: slug ?? '',
      theme,
      announce,
      answers: progress.answers,
      saveAnswer,
      glossary: byId,
    }),
    [mainStore, openInVisualiser, slug, theme, announce, progress.answers, saveAnswer, byId],
  );

  const readCount = chapters.filter((c) => progress.read.includes(c.slug)).length;
  const backTo = chapters.find((c) => c.slug === progress.last);
  let body;
  if (loaded.status === 'loading') body = <p className="reader-loading">Loading the chapters…</p>;
  else if (loaded.status === 'error')
    body = (
      <p className="reader-error" role="alert">
        The tutorial could not be loaded: {loaded.message}
      </p>
    );
  else if (route.kind === 'glossary')
    body = (
      <GlossaryPage
        entries={glossary}
        term={route.term}
        back={backTo ? { slug: backTo.slug, title: backTo.title } : undefined}
      />
    );
  else if (route.kind === 'home') body = <p className="reader-loading">Opening the tutorial…</p>;
  else if (!chapter) body = <NotFound slug={route.slug} />;
  else
    body = (
      <ChapterView
        key={chapter.slug}
        chapter={chapter}
        section={route.section}
        prev={chapters[index - 1]}
        nextChapter={chapters[index + 1]}
        glossary={glossary}
        onEnd={onEnd}
        held={held}
        onShowScene={() =>
          chapter.scene !== undefined &&
          showChapterScene(chapter.slug, chapter.scene, document.activeElement)
        }
      />
    );
  // The contents open by themselves only where there is nothing else to read yet.
  const showToc = route.kind === 'home' || (route.kind === 'chapter' && !chapter);
  const notFound = loaded.status === 'ready' && route.kind === 'chapter' && !chapter;

  return (
    <ReaderContext.Provider value={context}>
      <section
        ref={reader}
        id={READER_ID}
        className="reader"
        aria-label="Tutorial"
        // Focusable, so that clicking the text gives it the scrolling keys (useGlobalKeys.ts).
        tabIndex={-1}
        data-reader-keys=""
        data-testid="reader"
        data-state={loaded.status}
        data-route={route.kind}
        data-read-count={readCount}
        data-cluster-kept={kept ? 'true' : 'false'}
      >
        <header className="reader-head">
          <p className="reader-kicker">Tutorial</p>
          <p className="reader-progress" data-testid="reader-progress">
            {readCount} of {chapters.length} read
          </p>
          <a className="reader-glossary" href={learnHash({ kind: 'glossary' })}>
            Glossary
          </a>
          <button
            type="button"
            className="reader-close"
            onClick={() => closeTutorial(selectShareHash(mainStore.getState()))}
          >
            Close<span className="visually-hidden"> the tutorial</span>
          </button>
        </header>
        {/* A missing chapter says so first, then offers the contents. */}
        {notFound && body}
        <details className="reader-contents" open={showToc} key={showToc ? 'toc-open' : 'toc'}>
          <summary>Contents</summary>
          <Toc chapters={chapters} current={chapter?.slug} read={progress.read} />
        </details>
        {!notFound && body}
        <div className={status || kept ? 'reader-status active' : 'reader-status'}>
          <p role="status" data-testid="reader-status">
            {status}
          </p>
          {kept && (
            <button
              type="button"
              className="reader-restore"
              onClick={restore}
              data-testid="restore-cluster"
            >
              Restore your cluster
            </button>
          )}
        </div>
      </section>
    </ReaderContext.Provider>
  );
}
