package io.sluice.batch.internal;

import static io.sluice.jdbc.JdbcAccess.bind;

import io.sluice.batch.BatchFailure;
import io.sluice.batch.BatchRecord;
import io.sluice.batch.BatchState;
import io.sluice.batch.StepCounts;
import io.sluice.core.SluiceException;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.serialization.spi.SerializationException;
import io.sluice.jdbc.JdbcAccess;
import io.sluice.jobs.LeaseHolder;
import io.sluice.jobs.spi.NodeLease;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The blocks and instances of batch jobs in SQLite or PostgreSQL (tables {@code
 * sluice_batch_instance}, {@code sluice_batch_block} and {@code sluice_batch_step}, migration V4;
 * {@code sluice_batch_failure}, V11). Every change is one transaction of the storage's writer, so
 * what it says happened either happened whole or not at all: a block is loaded with the input
 * position after it; a block moves to its next step with the step's counts; a block leaves after
 * its last step with its counts. Each move is fenced by the step the block was at, so a block is
 * never moved twice from one step. The records a change counts as failed are kept ({@link
 * FailureTable}) in the same commit, up to the instance's bound.
 */
public final class BlockStore {

  /**
   * A block waiting for step {@code step}; when its stored records cannot be read, none, and why in
   * {@code unreadable}.
   */
  public record Block(
      long instance, long number, int step, List<BatchRecord> records, Unreadable unreadable) {

    /** A block whose records were read. */
    public Block(long instance, long number, int step, List<BatchRecord> records) {
      this(instance, number, step, records, null);
    }
  }

  /**
   * Why a block's stored records cannot be read, and how many records it holds: null when it was
   * stored before schema v5 kept the count.
   */
  public record Unreadable(String reason, Integer records) {}

  private final JdbcAccess db;
  private final StoredValues values;
  private final Clock clock;
  private final InstanceTable.Sql sql;
  private final InstanceTable instances;

  /** Whether the storage is shared by nodes (PostgreSQL): its blocks are claimed under leases. */
  private final boolean shared;

  /**
   * A claimed block's fence: its owner, its epoch, and that lease valid on the database's clock.
   */
  private final String fence;

  /** The storage's type, for its dialect's SQL. */
  private final String type;

  /** The block store of the storage {@code db}, writing records with {@code values}. */
  public BlockStore(JdbcAccess db, StoredValues values) {
    this.db = db;
    this.values = values;
    this.clock = db.clock();
    this.sql = sql(db);
    this.instances = new InstanceTable(sql);
    this.type = db.type();
    this.shared = type.equals("postgresql");
    this.fence = " AND owner = ? AND epoch = ? AND " + LeaseHolder.validSql(type);
  }

  /**
   * Whether the storage can be shared by several nodes (PostgreSQL): a run there claims its blocks
   * under its node's lease, and other nodes join it. An embedded SQLite store belongs to one
   * process.
   */
  public boolean shared() {
    return shared;
  }

  /**
   * {@code parameters}, then the fence's (owner and epoch, twice) when {@code lease} is not null.
   */
  private static Object[] fenced(NodeLease lease, Object... parameters) {
    if (lease == null) {
      return parameters;
    }
    Object[] all = java.util.Arrays.copyOf(parameters, parameters.length + 4);
    all[parameters.length] = lease.node();
    all[parameters.length + 1] = lease.epoch();
    all[parameters.length + 2] = lease.node();
    all[parameters.length + 3] = lease.epoch();
    return all;
  }

  /** The clock the storage measures times on. */
  Clock clock() {
    return clock;
  }

  /**
   * The statements of {@link InstanceTable} and {@link FailureTable} on the storage's writer and
   * readers.
   */
  public static InstanceTable.Sql sql(JdbcAccess db) {
    return new InstanceTable.Sql() {
      @Override
      public <T> List<T> query(
          String what, String sql, JdbcAccess.Row<T> row, Object... parameters) {
        return db.query(what, sql, row, parameters);
      }

      @Override
      public int update(String what, String sql, Object... parameters) {
        return db.write(
            what,
            tx -> {
              PreparedStatement statement = tx.prepare(sql);
              bind(statement, parameters);
              return statement.executeUpdate();
            });
      }
    };
  }

  /** A new instance of {@code job}, loading; {@code definition} fingerprints the job's steps. */
  public long create(String job, String definition) {
    return create(job, definition, null);
  }

  /**
   * A new instance of {@code job} started with {@code key} (null: none), loading; the store refuses
   * a second instance of the job with the same key (a unique index, so across processes too).
   */
  public long create(String job, String definition, String key) {
    return create(job, definition, key, Map.of());
  }

  /**
   * A new instance of {@code job} started with {@code key} (null: none) and {@code parameters}
   * (kept as one stored value, none when empty), loading.
   */
  public long create(String job, String definition, String key, Map<String, Object> parameters) {
    return create(job, definition, null, key, parameters);
  }

  /**
   * As {@link #create(String, String, String, Map)}, keeping {@code text}, the readable form of the
   * definition (null: none), with it.
   */
  public long create(
      String job, String definition, String text, String key, Map<String, Object> parameters) {
    long now = clock.millis();
    byte[] stored = parameters.isEmpty() ? null : values.write(new LinkedHashMap<>(parameters));
    return db.write(
        "create an instance of batch job '" + job + "'",
        tx -> {
          PreparedStatement insert =
              tx.prepare(
                  "INSERT INTO sluice_batch_instance (job, definition, state, created_at,"
                      + " updated_at, input_key, parameters, definition_text) VALUES (?, ?, ?, ?,"
                      + " ?, ?, ?, ?) RETURNING id");
          bind(insert, job, definition, BatchState.LOADING.ordinal(), now, now, key, stored, text);
          try (ResultSet rs = insert.executeQuery()) {
            rs.next();
            return rs.getLong(1);
          }
        });
  }

  /** The readable definition instance {@code id} was created with; null when none was kept. */
  public String definitionText(long id) {
    List<String> text =
        db.query(
            "read the definition of batch instance " + id,
            "SELECT definition_text FROM sluice_batch_instance WHERE id = ?",
            rs -> rs.getString(1),
            id);
    return text.isEmpty() ? null : text.getFirst();
  }

  /**
   * Runs {@code work} holding the store-wide lock of {@code key}, with the instances read through
   * the lock's own connection: on PostgreSQL a session advisory lock, so that nodes starting the
   * same job at the same instant find one instance (the first one's) rather than each creating one;
   * on SQLite, which one process holds, at once.
   */
  public <T> T exclusively(String key, java.util.function.Function<Instances, T> work) {
    if (!shared) {
      return work.apply(new Instances(instances));
    }
    return db.read(
        "lock " + key,
        connection -> {
          try (PreparedStatement lock =
              connection.prepareStatement("SELECT pg_advisory_lock(hashtext(?))")) {
            lock.setString(1, key);
            lock.execute();
          }
          try {
            return work.apply(new Instances(new InstanceTable(on(connection))));
          } finally {
            try (PreparedStatement unlock =
                connection.prepareStatement("SELECT pg_advisory_unlock(hashtext(?))")) {
              unlock.setString(1, key);
              unlock.execute();
            }
          }
        });
  }

  /** The instances as {@link #exclusively} reads them, with their stored parameters. */
  public final class Instances {
    private final InstanceTable table;

    private Instances(InstanceTable table) {
      this.table = table;
    }

    /** Up to {@code max} instances of {@code job}, newest first. */
    public List<InstanceTable.Instance> list(String job, int max) {
      return table.list(job, max);
    }

    /** The parameters instance {@code id} was started with; empty when none. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> parameters(long id) {
      byte[] stored = table.parameters(id);
      return stored == null ? Map.of() : Map.copyOf((Map<String, Object>) values.read(stored));
    }
  }

  /** The statements of {@link InstanceTable} on one connection (auto-commit). */
  private static InstanceTable.Sql on(java.sql.Connection connection) {
    return new InstanceTable.Sql() {
      @Override
      public <T> List<T> query(
          String what, String sql, JdbcAccess.Row<T> row, Object... parameters) {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
          bind(statement, parameters);
          List<T> rows = new ArrayList<>();
          try (ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
              rows.add(row.map(rs));
            }
          }
          return rows;
        } catch (java.sql.SQLException e) {
          throw new SluiceException("Could not " + what + ": " + e.getMessage(), e);
        }
      }

      @Override
      public int update(String what, String sql, Object... parameters) {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
          bind(statement, parameters);
          return statement.executeUpdate();
        } catch (java.sql.SQLException e) {
          throw new SluiceException("Could not " + what + ": " + e.getMessage(), e);
        }
      }
    };
  }

  /** The parameters instance {@code id} was started with; empty when none (or no instance). */
  @SuppressWarnings("unchecked")
  public Map<String, Object> parameters(long id) {
    byte[] stored = instances.parameters(id);
    return stored == null ? Map.of() : Map.copyOf((Map<String, Object>) values.read(stored));
  }

  /**
   * Stores block {@code number} of {@code instance}, waiting for the first step, with the input
   * position reading resumes from after it, in one commit; {@code failed} of its records could not
   * be read. Returns false, changing nothing, when the block exists already (loaded before a
   * crash).
   */
  public boolean load(
      long instance, long number, List<BatchRecord> records, long nextPosition, long failed) {
    return load(instance, List.of(new Loaded(number, records, failed)), nextPosition).getFirst();
  }

  /**
   * A block read from the input: its number, its records, how many could not be read, and whether
   * the loading node holds a place for it (stored claimed by the loader, and run from its memory).
   */
  public record Loaded(long number, List<BatchRecord> records, long failed, boolean held) {

    /** A block no node holds once stored. */
    public Loaded(long number, List<BatchRecord> records, long failed) {
      this(number, records, failed, false);
    }
  }

  /**
   * Stores these consecutive blocks of {@code instance} and the input position after the last, in
   * one commit (a loader reading fast needs one commit for several blocks, not one each); returns,
   * block by block, whether it was stored (false: it existed already).
   */
  public List<Boolean> load(long instance, List<Loaded> blocks, long nextPosition) {
    return load(instance, blocks, nextPosition, null);
  }

  /**
   * As {@link #load(long, List, long)}, by the node that took the loading under {@code loader}
   * (null: one process's store): when that node no longer loads the instance (its lease lapsed and
   * another took the loading over), nothing is stored and a {@link RoleLostException} says so.
   */
  public List<Boolean> load(
      long instance, List<Loaded> blocks, long nextPosition, NodeLease loader) {
    List<byte[]> stored = new ArrayList<>(blocks.size());
    blocks.forEach(block -> stored.add(values.write(new ArrayList<>(block.records()))));
    long now = clock.millis();
    return db.write(
        "load " + blocks.size() + " block(s) of batch instance " + instance,
        tx -> {
          PreparedStatement insert =
              tx.prepare(
                  "INSERT INTO sluice_batch_block (instance_id, block_no, step, records,"
                      + " record_count, owner, epoch) VALUES (?, ?, 0, ?, ?, ?, ?)"
                      + " ON CONFLICT (instance_id, block_no) DO NOTHING");
          List<Boolean> inserted = new ArrayList<>(blocks.size());
          List<BatchRecord> unreadable = new ArrayList<>();
          long records = 0;
          long failed = 0;
          for (int i = 0; i < blocks.size(); i++) {
            Loaded block = blocks.get(i);
            boolean owned = block.held() && loader != null;
            bind(
                insert,
                instance,
                block.number(),
                stored.get(i),
                block.records().size(),
                owned ? loader.node() : null,
                owned ? loader.epoch() : null);
            boolean fresh = insert.executeUpdate() == 1;
            inserted.add(fresh);
            if (fresh) {
              records += block.records().size();
              failed += block.failed();
              block.records().stream().filter(BatchRecord::failed).forEach(unreadable::add);
            }
          }
          if (inserted.contains(true)) {
            PreparedStatement progress =
                tx.prepare(
                    "UPDATE sluice_batch_instance SET input_position = ?, loaded = loaded + ?,"
                        + " failed = failed + ?, updated_at = ? WHERE id = ?"
                        + (loader == null
                            ? ""
                            : " AND loader = ? AND loader_epoch = ? AND "
                                + LeaseHolder.validSql(type)));
            bind(
                progress,
                loader == null
                    ? new Object[] {nextPosition, records, failed, now, instance}
                    : fenced(loader, nextPosition, records, failed, now, instance));
            if (progress.executeUpdate() == 0 && loader != null) {
              throw new RoleLostException(instance, loader, RoleLostException.LOADS);
            }
            FailureTable.keep(tx, instance, unreadable, now);
          }
          return inserted;
        });
  }

  /**
   * Moves block {@code number} from step {@code step} to the next, its records now {@code records},
   * and adds {@code counts} to the step's and the records in {@code newlyFailed} (those the step
   * failed that had not failed before) to the instance's, keeping them, in one commit; {@code last}
   * when {@code step} was the last one: the block leaves. Returns false, changing nothing, when the
   * block was not at {@code step} (moved already).
   */
  public boolean advance(
      long instance,
      long number,
      int step,
      boolean last,
      List<BatchRecord> records,
      StepCounts counts,
      List<BatchRecord> newlyFailed) {
    return advance(instance, number, step, last, records, counts, newlyFailed, null);
  }

  /**
   * As {@link #advance(long, long, int, boolean, List, StepCounts, List)}, for a block claimed
   * under {@code lease} (null: not claimed, one process's store): false, changing nothing, too when
   * the block is no longer held under that lease or the lease is not valid now.
   */
  public boolean advance(
      long instance,
      long number,
      int step,
      boolean last,
      List<BatchRecord> records,
      StepCounts counts,
      List<BatchRecord> newlyFailed,
      NodeLease lease) {
    byte[] stored = last ? null : values.write(new ArrayList<>(records));
    long processed = last ? records.size() : 0;
    long successful = last ? records.stream().filter(r -> !r.failed()).count() : 0;
    return move(
        instance,
        number,
        step,
        stored,
        null,
        records.size(),
        processed,
        successful,
        counts,
        newlyFailed.size(),
        newlyFailed,
        lease);
  }

  /**
   * Takes block {@code number}, whose stored records cannot be read, out at step {@code step}: its
   * {@code records} count as failed at that step and through every step (none successful), and
   * {@code why} (at position 0) stands for them among the kept failed records, in one commit.
   * Returns false, changing nothing, when the block was not at {@code step}.
   */
  public boolean dropUnreadable(
      long instance, long number, int step, long records, BatchRecord why) {
    return dropUnreadable(instance, number, step, records, why, null);
  }

  /**
   * As {@link #dropUnreadable(long, long, int, long, BatchRecord)}, for a block claimed under
   * {@code lease} (null: not claimed).
   */
  public boolean dropUnreadable(
      long instance, long number, int step, long records, BatchRecord why, NodeLease lease) {
    return move(
        instance,
        number,
        step,
        null,
        null,
        0,
        records,
        0,
        new StepCounts(records, records, 0),
        records,
        List.of(why),
        lease);
  }

  /** Moves a block past {@code step} (deletes it when {@code stored} is null) with its counts. */
  private boolean move(
      long instance,
      long number,
      int step,
      byte[] stored,
      byte[] lines,
      int size,
      long processed,
      long successful,
      StepCounts counts,
      long newlyFailed,
      List<BatchRecord> failures,
      NodeLease lease) {
    long now = clock.millis();
    return db.write(
        "move block " + number + " of batch instance " + instance + " past step " + step,
        tx ->
            move(
                tx,
                instance,
                number,
                step,
                stored,
                lines,
                size,
                processed,
                successful,
                counts,
                newlyFailed,
                failures,
                now,
                lease));
  }

  private boolean move(
      JdbcAccess.Transaction tx,
      long instance,
      long number,
      int step,
      byte[] stored,
      byte[] lines,
      int size,
      long processed,
      long successful,
      StepCounts counts,
      long newlyFailed,
      List<BatchRecord> failures,
      long now,
      NodeLease lease)
      throws java.sql.SQLException {
    PreparedStatement move;
    if (lines != null) {
      // Through its last step on a node that does not write the output: its lines wait in its row
      // for the node that does, which takes it out as it writes them (writtenLines).
      move =
          tx.prepare(
              "UPDATE sluice_batch_block SET step = step + 1, records = ?, record_count = 0,"
                  + " lines = ? WHERE instance_id = ? AND block_no = ? AND step = ?"
                  + (lease == null ? "" : fence));
      bind(move, fenced(lease, new byte[0], lines, instance, number, (long) step));
    } else if (stored == null) {
      move =
          tx.prepare(
              "DELETE FROM sluice_batch_block WHERE instance_id = ? AND block_no = ?"
                  + " AND step = ?"
                  + (lease == null ? "" : fence));
      bind(move, fenced(lease, instance, number, (long) step));
    } else {
      move =
          tx.prepare(
              "UPDATE sluice_batch_block SET step = step + 1, records = ?, record_count = ?"
                  + " WHERE instance_id = ? AND block_no = ? AND step = ?"
                  + (lease == null ? "" : fence));
      bind(move, fenced(lease, stored, size, instance, number, (long) step));
    }
    if (move.executeUpdate() == 0) {
      return false;
    }
    // The instance's row before the step's: every write of a run that takes both (a load takes only
    // the instance's) takes them in this order, so two of the writer's transactions on PostgreSQL
    // cannot each hold one and wait for the other (a deadlock failed a table copy).
    PreparedStatement total =
        tx.prepare(
            "UPDATE sluice_batch_instance SET failed = failed + ?, processed = processed"
                + " + ?, successful = successful + ?, updated_at = ? WHERE id = ?");
    bind(total, newlyFailed, processed, successful, now, instance);
    total.executeUpdate();
    if (lease != null && stored == null) {
      // stored is null both for a block out and for one whose lines wait for the output's writer
      PreparedStatement node =
          tx.prepare(
              "INSERT INTO sluice_batch_node (instance_id, node, processed, failed, blocks,"
                  + " updated_at) VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (instance_id, node) DO"
                  + " UPDATE SET processed = sluice_batch_node.processed + excluded.processed,"
                  + " failed = sluice_batch_node.failed + excluded.failed,"
                  + " blocks = sluice_batch_node.blocks + 1, updated_at = excluded.updated_at");
      bind(node, instance, lease.node(), processed, processed - successful, now);
      node.executeUpdate();
    }
    FailureTable.keep(tx, instance, failures, now);
    PreparedStatement add =
        tx.prepare(
            "INSERT INTO sluice_batch_step (instance_id, step, processed, failed, skipped)"
                + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (instance_id, step) DO UPDATE SET"
                + " processed = sluice_batch_step.processed + excluded.processed,"
                + " failed = sluice_batch_step.failed + excluded.failed,"
                + " skipped = sluice_batch_step.skipped + excluded.skipped");
    bind(add, instance, (long) step, counts.processed(), counts.failed(), counts.skipped());
    add.executeUpdate();
    return true;
  }

  /**
   * A block through its last step whose successful records are written to the output: {@code
   * records} of them, {@code successful} not failed (the lines), the step's counts and the records
   * it newly failed (the step's, and those the output could not write). No other payloads: a block
   * waiting for its turn at the output keeps only its lines and its failures.
   */
  public record Written(
      long number,
      int step,
      int records,
      long successful,
      StepCounts counts,
      List<BatchRecord> newlyFailed) {}

  /**
   * Takes these blocks out after their last step, with their counts, and sets the bytes of the
   * output file the commits count to {@code outputBytes} (the end of their lines), in one commit:
   * the output of one process's store ({@link #writtenLines} is a shared store's). A block not at
   * its step (moved already) rolls the whole commit back with a {@link SluiceException}: its lines
   * would be in the file twice.
   */
  public void written(long instance, List<Written> blocks, long outputBytes) {
    long now = clock.millis();
    db.write(
        "take " + blocks.size() + " written block(s) of batch instance " + instance + " out",
        tx -> {
          for (Written block : blocks) {
            if (!through(tx, instance, block, null, now, null)) {
              throw new SluiceException(
                  "block "
                      + block.number()
                      + " of batch instance "
                      + instance
                      + " is no longer at step "
                      + block.step()
                      + ": another run took it out, and its lines are written already");
            }
          }
          PreparedStatement bytes =
              tx.prepare("UPDATE sluice_batch_instance SET output_bytes = ? WHERE id = ?");
          bind(bytes, outputBytes, instance);
          bytes.executeUpdate();
          return null;
        });
  }

  /**
   * Moves {@code block}, claimed under {@code lease}, past its last step on a shared store, where
   * one node writes the output for all: its counts are committed as {@link #written} commits them,
   * and its row keeps {@code lines} (UTF-8) for the writing node ({@link #lines}); no node claims
   * it again. False, changing nothing, when the block was not at its step or not held under {@code
   * lease}.
   */
  public boolean throughToOutput(long instance, Written block, byte[] lines, NodeLease lease) {
    long now = clock.millis();
    return db.write(
        "leave the lines of block " + block.number() + " of batch instance " + instance,
        tx -> through(tx, instance, block, lines, now, lease));
  }

  /** Moves {@code block} past its last step: out, or keeping {@code lines} when not null. */
  private boolean through(
      JdbcAccess.Transaction tx,
      long instance,
      Written block,
      byte[] lines,
      long now,
      NodeLease lease)
      throws java.sql.SQLException {
    return move(
        tx,
        instance,
        block.number(),
        block.step(),
        null,
        lines,
        0,
        block.records(),
        block.successful(),
        block.counts(),
        block.newlyFailed().size(),
        block.newlyFailed(),
        now,
        lease);
  }

  /**
   * A block of a shared instance, in block order, as the output's writer sees it: its output lines'
   * length when they wait in its row ({@link #throughToOutput}), or -1 while it is at a step.
   */
  public record Ahead(long number, int linesLength) {

    /** Whether its lines wait in its row. */
    public boolean stored() {
      return linesLength >= 0;
    }
  }

  /** The first {@code max} blocks left of {@code instance}, in block order ({@link Ahead}). */
  public List<Ahead> ahead(long instance, int max) {
    return db.query(
        "read the blocks ahead of the output of batch instance " + instance,
        "SELECT block_no, COALESCE(LENGTH(lines), -1) FROM sluice_batch_block WHERE instance_id = ?"
            + " ORDER BY block_no LIMIT ?",
        rs -> new Ahead(rs.getLong(1), rs.getInt(2)),
        instance,
        (long) max);
  }

  /**
   * The output lines waiting in the rows of blocks {@code numbers} of {@code instance}, by block.
   */
  public Map<Long, byte[]> lines(long instance, List<Long> numbers) {
    Map<Long, byte[]> lines = new java.util.HashMap<>();
    for (Map.Entry<Long, byte[]> row :
        db.query(
            "read the output lines of batch instance " + instance,
            "SELECT block_no, lines FROM sluice_batch_block WHERE instance_id = ? AND lines IS NOT"
                + " NULL AND block_no = ANY (CAST(? AS BIGINT[]))",
            rs -> Map.entry(rs.getLong(1), rs.getBytes(2)),
            instance,
            array(numbers))) {
      lines.put(row.getKey(), row.getValue());
    }
    return lines;
  }

  /** {@code numbers} as a PostgreSQL array literal, to bind as one text and cast. */
  private static String array(java.util.Collection<Long> numbers) {
    StringBuilder array = new StringBuilder("{");
    for (Long number : numbers) {
      array.append(array.length() > 1 ? "," : "").append(number);
    }
    return array.append('}').toString();
  }

  /**
   * Takes out, in one commit fenced by {@code writer}, the blocks of {@code instance} whose lines
   * are written: {@code stored} (their lines were in their rows) and {@code here} (through their
   * last step on the writing node, their counts committed now as {@link #written} commits them,
   * each fenced by {@code writer} as a step's move), and sets the bytes of the output file the
   * commits count to {@code outputBytes}. A {@link RoleLostException}, changing nothing, when that
   * node no longer writes the output, holds one of {@code here}, or finds one of {@code stored}
   * taken out already (another node wrote it).
   */
  public void writtenLines(
      long instance, List<Long> stored, List<Written> here, long outputBytes, NodeLease writer) {
    long now = clock.millis();
    db.write(
        "take "
            + (stored.size() + here.size())
            + " written block(s) of batch instance "
            + instance
            + " out",
        tx -> {
          for (Written block : here) {
            if (!through(tx, instance, block, null, now, writer)) {
              throw new RoleLostException(instance, writer, RoleLostException.WRITES);
            }
          }
          if (!stored.isEmpty()) {
            PreparedStatement out =
                tx.prepare(
                    "DELETE FROM sluice_batch_block WHERE instance_id = ? AND lines IS NOT NULL"
                        + " AND block_no = ANY (CAST(? AS BIGINT[]))");
            bind(out, instance, array(stored));
            int taken = out.executeUpdate();
            if (taken != stored.size()) {
              // Another node took them out: it writes the output now.
              throw new RoleLostException(instance, writer, RoleLostException.WRITES);
            }
          }
          PreparedStatement bytes =
              tx.prepare(
                  "UPDATE sluice_batch_instance SET output_bytes = ?, updated_at = ? WHERE id = ?"
                      + " AND writer = ? AND writer_epoch = ? AND "
                      + LeaseHolder.validSql(type));
          bind(bytes, fenced(writer, outputBytes, now, instance));
          if (bytes.executeUpdate() == 0) {
            throw new RoleLostException(instance, writer, RoleLostException.WRITES);
          }
          return null;
        });
  }

  /**
   * Takes the writing of {@code instance}'s output for {@code lease} when no node with a valid
   * lease writes it (none began, or the writer's lease lapsed); false, changing nothing, when
   * another node writes it.
   */
  public boolean takeWriting(long instance, NodeLease lease) {
    return takeRole(instance, lease, "writer", "", "the output");
  }

  /** Lets go of the writing of {@code instance}'s output if {@code lease} holds it. */
  public void releaseWriting(long instance, NodeLease lease) {
    releaseRole(instance, lease, "writer", "the output");
  }

  /**
   * Lets go of the loading of {@code instance} if {@code lease} holds it: a node whose run ended (a
   * stop) while its lease lives on (a {@code sluice run} node) would keep any other node from
   * loading the rest when the instance is resumed.
   */
  public void releaseLoading(long instance, NodeLease lease) {
    releaseRole(instance, lease, "loader", "the loading");
  }

  private void releaseRole(long instance, NodeLease lease, String role, String what) {
    update(
        "let go of " + what + " of batch instance " + instance + " for node " + lease,
        "UPDATE sluice_batch_instance SET "
            + role
            + " = NULL, "
            + role
            + "_epoch = NULL WHERE id = ? AND "
            + role
            + " = ? AND "
            + role
            + "_epoch = ?",
        instance,
        lease.node(),
        lease.epoch());
  }

  /**
   * The bytes of the output file the commits of {@code instance} count, or -1 when its output has
   * not begun.
   */
  public long outputBytes(long instance) {
    List<Long> bytes =
        db.query(
            "read the output position of batch instance " + instance,
            "SELECT output_bytes FROM sluice_batch_instance WHERE id = ?",
            rs -> {
              long value = rs.getLong(1);
              return rs.wasNull() ? -1L : value;
            },
            instance);
    return bytes.isEmpty() ? -1 : bytes.getFirst();
  }

  /** Records that the output of {@code instance} began: its first {@code bytes} are forced. */
  public void outputBegun(long instance, long bytes) {
    update(
        "begin the output of batch instance " + instance,
        "UPDATE sluice_batch_instance SET output_bytes = ? WHERE id = ?",
        bytes,
        instance);
  }

  /** Records that the whole input of {@code instance} is loaded: it is running now. */
  public void inputDone(long instance) {
    inputDone(instance, null);
  }

  /**
   * As {@link #inputDone(long)}, by the node that loads the instance under {@code loader} (null:
   * one process's store); a {@link RoleLostException} when it no longer does.
   */
  public void inputDone(long instance, NodeLease loader) {
    Object[] parameters = {(long) BatchState.RUNNING.ordinal(), clock.millis(), instance};
    int changed =
        sql.update(
            "end the input of batch instance " + instance,
            "UPDATE sluice_batch_instance SET input_done = TRUE, state = CASE WHEN state = ? THEN"
                + " ? ELSE state END, updated_at = ? WHERE id = ?"
                + (loader == null
                    ? ""
                    : " AND loader = ? AND loader_epoch = ? AND " + LeaseHolder.validSql(type)),
            loader == null
                ? new Object[] {
                  (long) BatchState.LOADING.ordinal(), parameters[0], parameters[1], instance
                }
                : fenced(
                    loader,
                    (long) BatchState.LOADING.ordinal(),
                    parameters[0],
                    parameters[1],
                    instance));
    if (changed == 0 && loader != null) {
      throw new RoleLostException(instance, loader, RoleLostException.LOADS);
    }
  }

  /**
   * Sets the state of {@code instance} as a run ends, with its result (null to keep it); a stop
   * request, answered now, is cleared.
   */
  public void state(long instance, BatchState state, String result) {
    update(
        "set batch instance " + instance + " " + state,
        "UPDATE sluice_batch_instance SET state = ?, result = COALESCE(?, result),"
            + " stop_requested = FALSE, updated_at = ? WHERE id = ?",
        (long) state.ordinal(),
        result,
        clock.millis(),
        instance);
  }

  /**
   * Records that a run of {@code instance} begins: it is loading again, or running when its input
   * was all loaded, a stop asked of an earlier run (one killed before it answered) is forgotten,
   * and it keeps up to {@code keepFailedRecords} failed records from now on (the job's bound in
   * force: rows kept already stay when it was lowered).
   */
  public void resumed(long instance, int keepFailedRecords) {
    update(
        "resume batch instance " + instance,
        "UPDATE sluice_batch_instance SET state = CASE WHEN input_done = TRUE THEN ? ELSE ? END,"
            + " stop_requested = FALSE, keep_failed_records = ?, updated_at = ? WHERE id = ?",
        (long) BatchState.RUNNING.ordinal(),
        (long) BatchState.LOADING.ordinal(),
        (long) keepFailedRecords,
        clock.millis(),
        instance);
  }

  /**
   * Takes {@code instance} for a resume if it is still as it was read ({@code state}, last changed
   * at {@code updatedAt}): moves its change time on, so that of two processes that read it alike
   * and both mean to resume it, one takes it and the other finds it changed. False when it had
   * changed.
   */
  public boolean takeForResume(long instance, BatchState state, long updatedAt) {
    long now = clock.millis();
    return sql.update(
            "take batch instance " + instance + " to resume it",
            "UPDATE sluice_batch_instance SET updated_at = CASE WHEN ? > updated_at THEN ?"
                + " ELSE updated_at + 1 END WHERE id = ? AND state = ? AND updated_at = ?",
            now,
            now,
            instance,
            (long) state.ordinal(),
            updatedAt)
        == 1;
  }

  private void update(String what, String sql, Object... parameters) {
    this.sql.update(what, sql, parameters);
  }

  /**
   * Claims up to {@code max} blocks of {@code instance} for {@code lease}, in block order: blocks
   * no node holds, or held under a lease that is no longer valid (a node that died or slept past
   * its lease). Blocks another node is claiming at the same moment are skipped, not waited for
   * ({@code FOR UPDATE SKIP LOCKED}); nothing is claimed unless {@code lease} is valid on the
   * database's clock. A block whose stored records cannot be read comes without them ({@link
   * Block#unreadable()}).
   */
  public List<Block> claim(long instance, NodeLease lease, int max) {
    // The records are read after the commit, not in it: a first read can take seconds on a cold
    // JVM (a serializer compiling its codec), and the writer's transaction would stay open that
    // long (PostgreSQL ends an idle one after 5 s) while every other write, a lease's renewal too,
    // waited behind it.
    List<Stored> rows =
        db.write(
            "claim blocks of batch instance " + instance + " for node " + lease,
            tx -> {
              PreparedStatement claim =
                  tx.prepare(
                      "UPDATE sluice_batch_block SET owner = ?, epoch = ? WHERE instance_id = ? AND"
                          + " block_no IN (SELECT block_no FROM sluice_batch_block c WHERE"
                          + " c.instance_id = ? AND c.lines IS NULL AND "
                          + LeaseHolder.lapsedSql(type, "c.owner", "c.epoch")
                          + " ORDER BY block_no LIMIT ? FOR UPDATE SKIP LOCKED) AND "
                          + LeaseHolder.validSql(type)
                          + " RETURNING block_no, step, records, record_count");
              bind(
                  claim,
                  lease.node(),
                  lease.epoch(),
                  instance,
                  instance,
                  (long) max,
                  lease.node(),
                  lease.epoch());
              List<Stored> claimed = new ArrayList<>();
              try (ResultSet rs = claim.executeQuery()) {
                while (rs.next()) {
                  claimed.add(stored(rs));
                }
              }
              return claimed;
            });
    List<Block> claimed = new ArrayList<>(rows.size());
    rows.forEach(row -> claimed.add(row.block(instance)));
    claimed.sort(java.util.Comparator.comparingLong(Block::number));
    return claimed;
  }

  /**
   * Lets go of the blocks of {@code instance} held under {@code lease}: another node (or a resumed
   * run) claims them at once rather than after the lease lapses. Returns how many.
   */
  public int release(long instance, NodeLease lease) {
    return sql.update(
        "release the blocks of batch instance " + instance + " held by node " + lease,
        "UPDATE sluice_batch_block SET owner = NULL, epoch = NULL WHERE instance_id = ? AND"
            + " owner = ? AND epoch = ?",
        instance,
        lease.node(),
        lease.epoch());
  }

  /**
   * Lets go of blocks {@code numbers} of {@code instance} if held under {@code lease} (a run that
   * left them unmoved: a stop, a store out of reach, a lease that lapsed on this node's clock but
   * not on the database's); returns how many it let go.
   */
  public int release(long instance, NodeLease lease, List<Long> numbers) {
    Object[] parameters = new Object[numbers.size() + 3];
    parameters[0] = instance;
    parameters[1] = lease.node();
    parameters[2] = lease.epoch();
    for (int i = 0; i < numbers.size(); i++) {
      parameters[i + 3] = numbers.get(i);
    }
    return sql.update(
        "release " + numbers.size() + " block(s) of batch instance " + instance,
        "UPDATE sluice_batch_block SET owner = NULL, epoch = NULL WHERE instance_id = ? AND"
            + " owner = ? AND epoch = ? AND block_no IN ("
            + String.join(", ", java.util.Collections.nCopies(numbers.size(), "?"))
            + ")",
        parameters);
  }

  /**
   * Lets go of the blocks of {@code instance} held under {@code lease} at a step, but for {@code
   * kept} (those the node has in memory); returns how many it let go.
   */
  public int releaseAllBut(long instance, NodeLease lease, java.util.Collection<Long> kept) {
    return sql.update(
        "release the unknown blocks of batch instance " + instance + " held by node " + lease,
        "UPDATE sluice_batch_block SET owner = NULL, epoch = NULL WHERE instance_id = ? AND"
            + " owner = ? AND epoch = ? AND lines IS NULL AND NOT (block_no = ANY (CAST(? AS"
            + " BIGINT[])))",
        instance,
        lease.node(),
        lease.epoch(),
        array(kept));
  }

  /**
   * Takes the loading of {@code instance}'s input for {@code lease} when its input is not all read
   * and no node with a valid lease loads it (none began, or the loader's lease lapsed: it died, or
   * slept past it); false, changing nothing, when another node loads it or the input is read.
   */
  public boolean takeLoading(long instance, NodeLease lease) {
    return takeRole(instance, lease, "loader", "input_done = FALSE AND ", "the loading");
  }

  /**
   * Sets {@code role} (the column of the node; its epoch's is {@code role_epoch}) of {@code
   * instance} to {@code lease} when {@code condition} holds and the role is this node's already or
   * no node with a valid lease has it, {@code lease} being valid; whether it did.
   */
  private boolean takeRole(
      long instance, NodeLease lease, String role, String condition, String what) {
    return sql.update(
            "take " + what + " of batch instance " + instance + " for node " + lease,
            "UPDATE sluice_batch_instance SET "
                + role
                + " = ?, "
                + role
                + "_epoch = ? WHERE id = ? AND "
                + condition
                + "(("
                + role
                + " = ? AND "
                + role
                + "_epoch = ?) OR "
                + LeaseHolder.lapsedSql(type, role, role + "_epoch")
                + ") AND "
                + LeaseHolder.validSql(type),
            lease.node(),
            lease.epoch(),
            instance,
            lease.node(),
            lease.epoch(),
            lease.node(),
            lease.epoch())
        == 1;
  }

  /**
   * How many blocks of {@code instance} no node with a valid lease holds, counted up to {@code
   * max}: whether the loader is far enough ahead of the nodes' claims.
   */
  public long claimable(long instance, int max) {
    return db.query(
            "count the unclaimed blocks of batch instance " + instance,
            "SELECT COUNT(*) FROM (SELECT 1 FROM sluice_batch_block c WHERE c.instance_id = ? AND"
                + " c.lines IS NULL AND "
                + LeaseHolder.lapsedSql(type, "c.owner", "c.epoch")
                + " LIMIT ?) ahead",
            rs -> rs.getLong(1),
            instance,
            (long) max)
        .getFirst();
  }

  /**
   * Where a shared instance stands for the nodes working on it: whether its input is all read,
   * whether a node with a valid lease loads it, how many blocks are left, how many of them no node
   * with a valid lease holds, whether a stop was asked, its state, its failed records, how many of
   * the blocks left are through every step with their lines waiting for the output's writer, and
   * whether a node with a valid lease writes the output.
   */
  public record Shared(
      boolean inputDone,
      boolean loading,
      long blocks,
      long claimable,
      boolean stopRequested,
      BatchState state,
      long failed,
      long lines,
      boolean writing) {

    /** Whether every block is through every step and the input is all read: the run is over. */
    public boolean finished() {
      return inputDone && blocks == 0;
    }

    /** Whether a node with a valid lease works on the instance: loads, holds blocks or writes. */
    public boolean worked() {
      return loading || writing || blocks - lines > claimable;
    }
  }

  /** Where shared instance {@code instance} stands ({@link Shared}). */
  public Shared shared(long instance) {
    return db.query(
            "read where batch instance " + instance + " stands",
            "SELECT i.input_done, NOT "
                + LeaseHolder.lapsedSql(type, "i.loader", "i.loader_epoch")
                + ", (SELECT COUNT(*) FROM sluice_batch_block b WHERE b.instance_id = i.id),"
                + " (SELECT COUNT(*) FROM sluice_batch_block c WHERE c.instance_id = i.id AND"
                + " c.lines IS NULL AND "
                + LeaseHolder.lapsedSql(type, "c.owner", "c.epoch")
                + "), i.stop_requested, i.state, i.failed,"
                + " (SELECT COUNT(*) FROM sluice_batch_block w WHERE w.instance_id = i.id AND"
                + " w.lines IS NOT NULL), NOT "
                + LeaseHolder.lapsedSql(type, "i.writer", "i.writer_epoch")
                + " FROM sluice_batch_instance i WHERE i.id = ?",
            rs ->
                new Shared(
                    rs.getBoolean(1),
                    rs.getBoolean(2),
                    rs.getLong(3),
                    rs.getLong(4),
                    rs.getBoolean(5),
                    BatchState.values()[rs.getInt(6)],
                    rs.getLong(7),
                    rs.getLong(8),
                    rs.getBoolean(9)),
            instance)
        .getFirst();
  }

  /**
   * Sets the state of {@code instance} as its last run ends, with its result, unless it ended
   * already ({@link BatchState#COMPLETED} or {@link BatchState#FAILED}); returns whether this call
   * ended it. Of the nodes that see a shared instance through, one ends it (and runs its
   * on-complete processors).
   */
  public boolean end(long instance, BatchState state, String result) {
    return sql.update(
            "end batch instance " + instance + " " + state,
            "UPDATE sluice_batch_instance SET state = ?, result = COALESCE(?, result),"
                + " stop_requested = FALSE, updated_at = ? WHERE id = ? AND state NOT IN (?, ?)",
            (long) state.ordinal(),
            result,
            clock.millis(),
            instance,
            (long) BatchState.COMPLETED.ordinal(),
            (long) BatchState.FAILED.ordinal())
        == 1;
  }

  /** What each node did of {@code instance}, by node; empty for an instance of one process. */
  public List<io.sluice.batch.BatchNodeWork> nodes(long instance) {
    return instances.nodes(instance);
  }

  /**
   * Up to {@code max} blocks of {@code instance} after block {@code after}, in block order, that
   * have not been through every step: what a resumed instance runs. A block whose stored records
   * cannot be read comes without them, saying why ({@link Block#unreadable()}), rather than failing
   * the others.
   */
  public List<Block> pending(long instance, long after, int max) {
    return db.query(
        "read the blocks of batch instance " + instance,
        "SELECT block_no, step, records, record_count FROM sluice_batch_block"
            + " WHERE instance_id = ? AND block_no > ? ORDER BY block_no LIMIT ?",
        rs -> block(instance, rs),
        instance,
        after,
        (long) max);
  }

  /** A block's row as stored: its records not read yet. */
  private final class Stored {
    final long number;
    final int step;
    final byte[] records;
    final Integer count;

    Stored(long number, int step, byte[] records, Integer count) {
      this.number = number;
      this.step = step;
      this.records = records;
      this.count = count;
    }

    /** The block of {@code instance}, its records read; when they cannot be, why. */
    Block block(long instance) {
      try {
        return new Block(instance, number, step, records(records));
      } catch (SerializationException e) {
        return new Block(instance, number, step, List.of(), new Unreadable(e.reason(), count));
      }
    }
  }

  /** The row: block_no, step, records, record_count. */
  private Stored stored(ResultSet rs) throws java.sql.SQLException {
    long number = rs.getLong(1);
    int step = rs.getInt(2);
    byte[] bytes = rs.getBytes(3);
    int count = rs.getInt(4);
    return new Stored(number, step, bytes, rs.wasNull() ? null : count);
  }

  /** The block of {@code instance} at the row: block_no, step, records, record_count. */
  private Block block(long instance, ResultSet rs) throws java.sql.SQLException {
    return stored(rs).block(instance);
  }

  @SuppressWarnings("unchecked")
  private List<BatchRecord> records(byte[] stored) {
    return (List<BatchRecord>) values.read(stored);
  }

  /** The counts of each step of {@code instance} that took or passed records, by step index. */
  public Map<Integer, StepCounts> steps(long instance) {
    Map<Integer, StepCounts> counts = new LinkedHashMap<>();
    db.query(
        "count the steps of batch instance " + instance,
        "SELECT step, processed, failed, skipped FROM sluice_batch_step WHERE instance_id = ?"
            + " ORDER BY step",
        rs -> counts.put(rs.getInt(1), new StepCounts(rs.getLong(2), rs.getLong(3), rs.getLong(4))),
        instance);
    return counts;
  }

  /** The instance {@code id}, if there is one. */
  public Optional<InstanceTable.Instance> find(long id) {
    return instances.find(id);
  }

  /** The instance of {@code job} started with {@code key}, if there is one. */
  public Optional<InstanceTable.Instance> find(String job, String key) {
    return instances.find(job, key);
  }

  /** Up to {@code max} instances, newest first; of {@code job} only unless it is null. */
  public List<InstanceTable.Instance> list(String job, int max) {
    return instances.list(job, max);
  }

  /** Asks the run of {@code instance} to stop, in whichever process; see {@link InstanceTable}. */
  public boolean requestStop(long instance) {
    return instances.requestStop(instance, clock.millis());
  }

  /**
   * Up to {@code max} kept failed records of {@code instance} from input position {@code
   * fromPosition} on, in input order ({@link FailureTable#from}).
   */
  public List<BatchFailure> failures(long instance, long fromPosition, int max) {
    return new FailureTable(sql).from(instance, fromPosition, max);
  }

  /** Whether someone asked {@code instance} to stop since its run began. */
  public boolean stopRequested(long instance) {
    return instances.stopRequested(instance);
  }

  /** Whether someone asked {@code instance} to stop, or (when {@code orStopped}) it is stopped. */
  public boolean stopRequested(long instance, boolean orStopped) {
    return instances.stopRequested(instance, orStopped);
  }
}
