package io.sluice.config;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A test component that answers, while its flow holds a message, the serializer and codec ids in
 * the header of the newest message kept in the store's persistent queues ({@link #database}): the
 * one it holds, since an earlier flow's message may not be acknowledged (deleted) yet.
 */
public final class QueuedRecordHeader {

  /** The SQLite file the flow's application keeps its queues in. */
  static volatile Path database;

  /** {@code serializer=<id> codec=<id>} of the kept message's stored record. */
  public String header(Object payload) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database);
        PreparedStatement s =
            c.prepareStatement(
                "SELECT payload FROM sluice_queue_payload ORDER BY id DESC LIMIT 1");
        ResultSet r = s.executeQuery()) {
      if (!r.next()) {
        return "no message kept";
      }
      byte[] record = r.getBytes(1);
      // byte 3 of a record's header is the serializer's id, byte 5 the codec's
      return "serializer=" + record[3] + " codec=" + record[5];
    }
  }
}
