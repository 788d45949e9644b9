// One recording span (the API's `Span`): attributes, events, links and status kept within limits, handed on at end.
import {
  SpanStatusCode,
  type Attributes,
  type Exception,
  type HrTime,
  type Link,
  type SpanContext,
  type Span,
  type SpanKind,
  type SpanStatus,
  type TimeInput,
} from '@opentelemetry/api';
import { AttributeBag, type SpanLimits } from './attributes.js';

/** What the process says of itself (OTLP's resource) and which code made a span (its instrumentation scope). */
export interface Resource {
  readonly attributes: Attributes;
}
export interface Scope {
  readonly name: string;
  readonly version?: string;
  readonly schemaUrl?: string;
}

export interface FinishedEvent {
  readonly name: string;
  readonly time: HrTime;
  readonly attributes?: Attributes;
  readonly droppedAttributesCount?: number;
}

/** A span once ended, as the exporter and the tree read it (the shape of the SDK's `ReadableSpan` they use). */
export interface FinishedSpan {
  readonly name: string;
  readonly kind: SpanKind;
  spanContext(): SpanContext;
  readonly parentSpanContext?: SpanContext | undefined;
  readonly startTime: HrTime;
  readonly endTime: HrTime;
  readonly status: SpanStatus;
  readonly attributes: Attributes;
  readonly events: readonly FinishedEvent[];
  readonly links: readonly Link[];
  readonly resource: Resource;
  readonly instrumentationScope: Scope;
  readonly droppedAttributesCount: number;
  readonly droppedEventsCount: number;
  readonly droppedLinksCount: number;
}

/** Milliseconds since the epoch as `[seconds, nanoseconds]`. */
export function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

export const hrTimeToMs = ([seconds, nanoseconds]: HrTime): number => seconds * 1000 + nanoseconds / 1e6;

const isHrTime = (value: unknown): value is HrTime =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === 'number' && typeof value[1] === 'number';

const isTimeInput = (value: unknown): value is TimeInput =>
  typeof value === 'number' || value instanceof Date || isHrTime(value);

/** Where a span goes as it ends (the processors). */
export type OnEnd = (span: FinishedSpan) => void;

export interface SpanInit {
  readonly name: string;
  readonly kind: SpanKind;
  readonly context: SpanContext;
  readonly parent: SpanContext | undefined;
  readonly attributes: Attributes | undefined;
  readonly links: readonly Link[] | undefined;
  readonly startTime: TimeInput | undefined;
  readonly limits: SpanLimits;
  readonly resource: Resource;
  readonly scope: Scope;
  readonly onEnd: OnEnd;
}

export class RecordingSpan implements Span, FinishedSpan {
  name: string;
  readonly kind: SpanKind;
  readonly parentSpanContext: SpanContext | undefined;
  readonly startTime: HrTime;
  endTime: HrTime = [0, 0];
  status: SpanStatus = { code: SpanStatusCode.UNSET };
  readonly events: FinishedEvent[] = [];
  readonly links: Link[] = [];
  readonly resource: Resource;
  readonly instrumentationScope: Scope;
  droppedEventsCount = 0;
  droppedLinksCount = 0;
  readonly #context: SpanContext;
  readonly #attributes: AttributeBag;
  readonly #limits: SpanLimits;
  readonly #onEnd: OnEnd;
  /** The wall clock at start, and the monotonic clock then: later times are the first plus the second's advance. */
  readonly #epochMs = Date.now();
  readonly #perfMs = performance.now();
  #ended = false;

  constructor(init: SpanInit) {
    this.name = init.name;
    this.kind = init.kind;
    this.#context = init.context;
    this.parentSpanContext = init.parent;
    this.#limits = init.limits;
    this.#onEnd = init.onEnd;
    this.resource = init.resource;
    this.instrumentationScope = init.scope;
    this.#attributes = new AttributeBag(init.limits.attributeCount, init.limits.attributeValueLength);
    this.#attributes.setAll(init.attributes);
    for (const link of init.links ?? []) this.addLink(link);
    this.startTime = this.#time(init.startTime);
  }

  get attributes(): Attributes {
    return this.#attributes.values;
  }

  get droppedAttributesCount(): number {
    return this.#attributes.dropped;
  }

  spanContext(): SpanContext {
    return this.#context;
  }

  isRecording(): boolean {
    return !this.#ended;
  }

  setAttribute(key: string, value: unknown): this {
    if (!this.#ended) this.#attributes.set(key, value);
    return this;
  }

  setAttributes(attributes: Attributes): this {
    if (!this.#ended) this.#attributes.setAll(attributes);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.#ended) return this;
    const [attributes, at] = isTimeInput(attributesOrTime)
      ? [undefined, time ?? attributesOrTime]
      : [attributesOrTime, time];
    const { eventCount, attributePerEventCount, attributeValueLength } = this.#limits;
    if (eventCount === 0) {
      this.droppedEventsCount++;
      return this;
    }
    // The oldest goes first, as the SDK does it: the latest events say how a span ended.
    if (this.events.length >= eventCount) {
      this.events.shift();
      this.droppedEventsCount++;
    }
    const bag = new AttributeBag(attributePerEventCount, attributeValueLength);
    bag.setAll(attributes);
    this.events.push({ name, time: this.#time(at), attributes: bag.values, droppedAttributesCount: bag.dropped });
    return this;
  }

  addLink(link: Link): this {
    if (this.#ended) return this;
    const { linkCount, attributePerLinkCount, attributeValueLength } = this.#limits;
    if (linkCount === 0) {
      this.droppedLinksCount++;
      return this;
    }
    if (this.links.length >= linkCount) {
      this.links.shift();
      this.droppedLinksCount++;
    }
    const bag = new AttributeBag(attributePerLinkCount, attributeValueLength);
    bag.setAll(link.attributes);
    this.links.push({
      context: link.context,
      ...(Object.keys(bag.values).length > 0 && { attributes: bag.values }),
      ...(bag.dropped > 0 && { droppedAttributesCount: bag.dropped }),
    });
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  /** UNSET changes nothing and OK is final, as the API says; a message is kept for ERROR only. */
  setStatus(status: SpanStatus): this {
    if (this.#ended || status.code === SpanStatusCode.UNSET || this.status.code === SpanStatusCode.OK) return this;
    this.status =
      status.code === SpanStatusCode.ERROR && typeof status.message === 'string'
        ? { code: status.code, message: status.message }
        : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (!this.#ended) this.name = name;
    return this;
  }

  /** An `exception` event: `exception.type` (the error's code, else its name), `.message`, `.stacktrace`. */
  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') attributes['exception.message'] = exception;
    else if (exception !== null && typeof exception === 'object') {
      const { code, name, message, stack } = exception;
      if (code !== undefined && code !== '' && code !== 0) attributes['exception.type'] = String(code);
      else if (name) attributes['exception.type'] = name;
      if (message) attributes['exception.message'] = message;
      if (stack) attributes['exception.stacktrace'] = stack;
    }
    if (attributes['exception.type'] !== undefined || attributes['exception.message'] !== undefined)
      this.addEvent('exception', attributes, time);
  }

  /** Ends once (a second call is ignored); an end before the start is taken as the start. */
  end(endTime?: TimeInput): void {
    if (this.#ended) return;
    const end = this.#time(endTime);
    this.endTime = hrTimeToMs(end) < hrTimeToMs(this.startTime) ? this.startTime : end;
    this.#ended = true;
    this.#onEnd(this);
  }

  /**
   * A time given (epoch milliseconds, or a `performance.now()` reading when it is no later than now; a Date; an
   * HrTime), or now.
   */
  #time(input: TimeInput | undefined): HrTime {
    if (isHrTime(input)) return input;
    if (input instanceof Date) return hrTime(input.getTime());
    // A monotonic reading is placed on the wall clock the span started with (the SDK's correction too).
    if (typeof input === 'number')
      return hrTime(input <= performance.now() ? this.#epochMs + (input - this.#perfMs) : input);
    return hrTime(this.#epochMs + (performance.now() - this.#perfMs));
  }
}
