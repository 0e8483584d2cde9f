// The emulator's developer metadata classes: the metadata, its location, and the finder.
import { enumName, type FacadeClass } from '../realm';
import type { DeveloperMetadataRecord } from './model';
import { metadataInScope, type FinderImpl } from './scope';
import type { Scope } from './scope';

export function defineMetadata(S: Scope): void {
  const {
    exec,
    model,
    read,
    write,
    Visibility,
    LocationType,
    wrapSheet,
    wrapSpreadsheet,
    rangeFromRect,
    visibilityArg,
    wrapMetadata,
    classes,
  } = S;
  const Location = exec.define<{ record: DeveloperMetadataRecord }>('DeveloperMetadataLocation', {
    getLocationType() {
      return LocationType[this.record.location.type];
    },
    getRow() {
      const loc = this.record.location;
      if (loc.type !== 'ROW') return null;
      return rangeFromRect(
        loc.sheet,
        { row: loc.start, column: 1, numRows: loc.end - loc.start + 1, numColumns: loc.sheet.maxColumns },
        { wholeRows: true },
      );
    },
    getColumn() {
      const loc = this.record.location;
      if (loc.type !== 'COLUMN') return null;
      return rangeFromRect(
        loc.sheet,
        { row: 1, column: loc.start, numRows: loc.sheet.maxRows, numColumns: loc.end - loc.start + 1 },
        { wholeColumns: true },
      );
    },
    getSheet() {
      const loc = this.record.location;
      return loc.type === 'SPREADSHEET' ? null : wrapSheet(loc.sheet);
    },
    getSpreadsheet() {
      return this.record.location.type === 'SPREADSHEET' ? wrapSpreadsheet() : null;
    },
  });
  const Metadata: FacadeClass<{ record: DeveloperMetadataRecord }> = exec.define<{ record: DeveloperMetadataRecord }>(
    'DeveloperMetadata',
    {
      getId() {
        return this.record.id;
      },
      getKey() {
        return this.record.key;
      },
      getValue() {
        return this.record.value;
      },
      getVisibility() {
        return Visibility[this.record.visibility];
      },
      getLocation() {
        return classes.Location.wrap({ record: this.record });
      },
      setKey(key: string) {
        write('DeveloperMetadata', 'setKey');
        model.updateMetadata(this.record, { key: String(key) });
        return wrapMetadata(this.record);
      },
      setValue(value: string) {
        write('DeveloperMetadata', 'setValue');
        model.updateMetadata(this.record, { value: value === null ? null : String(value) });
        return wrapMetadata(this.record);
      },
      setVisibility(visibility: unknown) {
        write('DeveloperMetadata', 'setVisibility');
        this.record.visibility = visibilityArg(visibility);
        return wrapMetadata(this.record);
      },
      remove() {
        write('DeveloperMetadata', 'remove');
        model.removeMetadata(this.record);
      },
    },
  );
  const Finder = exec.define<FinderImpl>('DeveloperMetadataFinder', {
    withKey(key: string) {
      this.key = String(key);
      return this.facade;
    },
    withValue(value: string) {
      this.value = String(value);
      return this.facade;
    },
    withId(id: number) {
      this.id = Number(id);
      return this.facade;
    },
    withLocationType(type: unknown) {
      this.locationType = enumName(type);
      return this.facade;
    },
    withVisibility(visibility: unknown) {
      this.visibility = enumName(visibility);
      return this.facade;
    },
    onIntersectingLocations() {
      this.intersecting = true;
      return this.facade;
    },
    find() {
      read('DeveloperMetadataFinder', 'find');
      return model.metadata
        .filter((m) => metadataInScope(m, this.scope, this.intersecting))
        .filter((m) => this.key === undefined || m.key === this.key)
        .filter((m) => this.value === undefined || m.value === this.value)
        .filter((m) => this.id === undefined || m.id === this.id)
        .filter((m) => this.locationType === undefined || m.location.type === this.locationType)
        .filter((m) => this.visibility === undefined || m.visibility === this.visibility)
        .map(wrapMetadata);
    },
  });
  classes.Location = Location;
  classes.Metadata = Metadata;
  classes.Finder = Finder;
}
